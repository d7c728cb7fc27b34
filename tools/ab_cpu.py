"""CPU-time rates of random playouts and Normal and Easy self-play, for A/B checks between
checkouts on a shared machine (CPU time is steadier than wall clock there):

    PYTHONPATH=/path/to/old/checkout python tools/ab_cpu.py
    PYTHONPATH=$PWD python tools/ab_cpu.py

Run the two alternately, a few times each, and compare medians.
"""
import time, statistics
import spades_ai as sa
sa.random_playouts(10, seed=1); sa.play_hands(['normal']*4, 10, seed=1); sa.play_hands(['easy']*4, 10, seed=1)
def cpu(fn, n, r=5):
    out = []
    for _ in range(r):
        t = time.process_time(); fn(); out.append(n / (time.process_time() - t))
    return statistics.median(out)
rp = cpu(lambda: sa.random_playouts(400_000, seed=1), 400_000)
nm = cpu(lambda: sa.play_hands(['normal']*4, 40_000, seed=1), 40_000)
ez = cpu(lambda: sa.play_hands(['easy']*4, 40_000, seed=1), 40_000)
print(f"{sa.__file__.split('/spades_ai')[0]}: random_playouts {rp/1e6:.2f} M/s  normal {nm/1e3:.0f} k/s  easy {ez/1e3:.0f} k/s (CPU time)")
