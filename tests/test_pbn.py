"""PBN-style hand records (issue 22, item 3): random rules (passes included) and random
playouts round-trip exactly, the seat mapping, and malformed
records whose error names the line, the tag and the problem (a refused card by name)."""

from __future__ import annotations

import random

import pytest
from naive import random_rules_kwargs

from spades_ai import Hand, Rules, deal
from spades_ai.pbn import SEAT_LETTERS, PBNError, read_pbn, read_pbn_file, seat_of, to_pbn, write_pbn


def random_record(rnd: random.Random, rules: Rules, seed: int) -> Hand:
    """A hand under ``rules`` at a random match state, played at random to a random point."""
    scores = (rnd.randint(-190, 480), rnd.randint(-190, 480))
    bags = (rnd.randrange(rules.bag_limit), rnd.randrange(rules.bag_limit))
    hand = Hand(deal(seed, 0), dealer=rnd.randrange(4), rules=rules, scores=scores, bag_count=bags,
                hands_played=rnd.randint(0, 5))
    stop = rnd.choice([0, 2, 4, rnd.randint(5, 51), 52, 52])
    while hand.phase != "over":
        if hand.phase == "passing":
            if stop == 2 and len(hand.passers) == 1 and rnd.random() < 0.5:
                break  # one partner has chosen, the other not yet
            seat = hand.passers[0]
            hand.pass_cards(seat, rnd.sample(list(hand.cards(seat)), hand.pass_count))
        elif hand.phase == "bidding":
            if stop == 0 and sum(b is not None for b in hand.bids) == 2:
                break
            if hand.legal_bids(blind=True) and rnd.random() < 0.5:
                hand.bid(0, blind=True)
            else:
                hand.bid(rnd.choice(hand.legal_bids()))
        elif len(hand.plays) >= stop and stop != 52:
            break
        else:
            hand.play(rnd.choice(hand.legal_cards()))
    return hand


def test_random_rules_and_playouts_round_trip_exactly():
    rnd = random.Random(22)
    written = passes = 0
    for i in range(160):
        kw = random_rules_kwargs(rnd)
        rules = Rules(**kw)
        hand = random_record(rnd, rules, i)
        passes += any(p is not None for rnd_ in hand.passes for p in rnd_)
        text = hand.to_pbn(event=f"random {i}")
        back = Hand.from_pbn(text)
        assert back.to_record() == hand.to_record(), text
        assert back.rules == rules and back.phase == hand.phase
        assert back.to_pbn(event=f"random {i}") == text
        written += 1
    assert written == 160 and passes > 20


def test_seat_letters_and_the_deal_tag():
    assert [seat_of(c) for c in "SWNE"] == [0, 1, 2, 3] and SEAT_LETTERS == "SWNE"
    hand = Hand(deal(1, 0), dealer=3)
    text = hand.to_pbn()
    deal_line = next(line for line in text.splitlines() if line.startswith('[Deal "'))
    north = deal_line.split('"')[1][2:].split()[0]  # the first hand after N: is seat 2's
    spades = north.split(".")[0]
    assert sorted(spades) == sorted(str(c)[0] for c in hand.deal[2].suit(3))
    assert '[Dealer "E"]' in text and '[Auction "S"]' in text  # the dealer's left bids first
    # the same deal written from another compass point reads the same
    hands = deal_line.split('"')[1][2:].split()
    east_first = f'[Deal "E:{" ".join(hands[1:] + hands[:1])}"]'
    assert Hand.from_pbn(text.replace(deal_line, east_first)).to_record() == hand.to_record()


def test_several_records_in_one_file(tmp_path):
    hands = [random_record(random.Random(k), Rules(), k) for k in range(3)]
    path = tmp_path / "three.pbn"
    write_pbn(hands, path, events=["a", "b", "c"])
    assert [h.to_record() for h in read_pbn_file(path)] == [h.to_record() for h in hands]
    with pytest.raises(PBNError, match="holds 3 records, not one"):
        Hand.from_pbn(path.read_text())


def finished() -> str:
    rnd = random.Random(5)
    hand = Hand(deal(5, 0))
    while hand.phase != "over":
        hand.bid(rnd.choice(hand.legal_bids())) if hand.phase == "bidding" else hand.play(rnd.choice(hand.legal_cards()))
    return hand.to_pbn()


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


@pytest.mark.parametrize(
    "change, where, problem",
    [
        (lambda t: t.replace('[Dealer "S"]', '[Dealer "X"]'), "[Dealer", r"\[Dealer\]: a seat is one of the letters N, E, S, W, not 'X'"),
        (lambda t: t.replace('[Dealer "S"]', '[Dealer S]'), "[Dealer", r'\[Dealer\]: not a tag pair \[Tag "value"\]'),
        (lambda t: t.replace('[Game "Spades"]', '[Gmae "Spades"]'), "[Gmae", r"\[Gmae\]: unknown tag"),
        (lambda t: t.replace('[Rules ""]', '[Rules "nil_bonsu=50"]'), "[Rules", r"\[Rules\]: .*nil_bonsu"),
        (lambda t: t.replace('[Rules ""]', '[Rules "players=3"]'), "[Rules", r"\[Rules\]: PBN records play 4 players in pairs, not 3 players solo: PBN is a four-hand bridge format \(S W N E\)"),
        (lambda t: t.replace('[Rules ""]', '[Rules "teams=solo"]'), "[Rules", r"\[Rules\]: .*not 4 players solo"),
        (lambda t: t.replace('[Auction', '[Pass "2"]\nS SA SK\n[Auction'), "[Pass", r"\[Pass\]: the rules pass 0 card\(s\) in this round, not '2'"),
        (lambda t: t.replace('[Rules ""]', '[Rules "target_score=250"]\n[Rules ""]'), '[Rules ""]', r"\[Rules\]: the tag appears twice"),
        (lambda t: t.replace("[Deal \"N:", "[Deal \"N:A"), "[Deal \"", r"\[Deal\]: .*(twice|14 cards)"),
        (lambda t: t.replace("[Deal \"N:", "[Deal \"Q:"), "[Deal \"", r"\[Deal\]: a seat is one of the letters"),
        (lambda t: t.replace('[BagCount "NS 0', '[BagCount "NS 12'), "[BagCount", r"\[BagCount\]: bag_count\[0\] = 12 must be in 0..9"),
        (lambda t: t.replace('[HandsPlayed "0"]', '[HandsPlayed "-1"]'), "[HandsPlayed", r"\[HandsPlayed\]: hands_played"),
        (lambda t: t.replace('[Auction "W"]', '[Auction "N"]'), "[Auction", r"\[Auction\]: the bidding starts at the dealer's left, W, not N"),
        (lambda t: t.replace('[Play "W"]', '[Play "E"]'), "[Play", r"\[Play\]: W leads the first trick under these rules, not E"),
        (lambda t: t.replace('[Result "', '[Result "S 9 '), "[Result", r"\[Result\]: the record says"),
        (lambda t: t.replace("[Points \"NS", "[Points \"NS 1"), "[Points", r"\[Points\]: the record says"),
    ],
)
def test_malformed_records_name_the_line_the_tag_and_the_problem(change, where, problem):
    good = finished()
    bad = change(good)
    assert bad != good
    with pytest.raises(PBNError, match=rf"^line {line_of(bad, where)} {problem}"):
        Hand.from_pbn(bad)


def test_a_refused_card_or_bid_is_named_and_nothing_is_corrected():
    text = finished()
    lines = text.splitlines()
    k = line_of(text, '[Play "')  # 1-based: trick 1 is lines[k], trick j+1 is lines[k + j]
    tricks = [lines[k + j].split() for j in range(13)]
    led = tricks[0][0][0]
    # a seat that followed suit to trick 1 and played another suit later: swap the two cards
    col, j = next((c, j) for c in (1, 2, 3) if tricks[0][c][0] == led
                  for j in range(1, 13) if tricks[j][c][0] not in (led,))
    followed, other = tricks[0][col], tricks[j][col]
    tricks[0][col], tricks[j][col] = other, followed
    swapped = lines[:k] + [" ".join(t) for t in tricks] + lines[k + 13:]
    name = other[1] + other[0]
    with pytest.raises(PBNError, match=rf"^line {k + 1} \[Play\]: trick 1: seat \d may not play {name}: seat \d must follow"):
        Hand.from_pbn("\n".join(swapped))
    lines = text.splitlines()
    lines[k] = lines[k].replace(tricks[0][0], "ZZ")
    with pytest.raises(PBNError, match=rf"^line {k + 1} \[Play\]: 'ZZ' is no card"):
        Hand.from_pbn("\n".join(lines))
    auction = line_of(text, "[Auction")
    lines = text.splitlines()
    lines[auction] = "14 " + " ".join(lines[auction].split()[1:])
    with pytest.raises(PBNError, match=rf"^line {auction + 1} \[Auction\]: bid 1 \(14\) is refused"):
        Hand.from_pbn("\n".join(lines))


def test_an_unfinished_record_reads_to_where_it_stops():
    rnd = random.Random(9)
    hand = Hand(deal(9, 0), rules=Rules(jokers=2))
    while len(hand.plays) < 23:
        hand.bid(rnd.choice(hand.legal_bids())) if hand.phase == "bidding" else hand.play(rnd.choice(hand.legal_cards()))
    text = to_pbn(hand)
    assert text.splitlines()[-1].count("-") == 1  # three cards of the sixth trick
    assert Hand.from_pbn(text).to_record() == hand.to_record()
    with pytest.raises(PBNError, match=r"\[Result\]: the hand is not over"):
        Hand.from_pbn(text + '[Result "S 1 W 1 N 1 E 1"]\n')
    assert len(read_pbn(text + "\n" + text)) == 2


def test_replay_reads_pbn_and_exports_a_keep_plays_run(tmp_path, capsys):
    from spades_ai import run_tournament
    from spades_ai.cli import main

    run = run_tournament("normal,easy", deals=4, seed=5, out=tmp_path / "run", keep_plays=True, n_jobs=1, progress=False).path
    assert main(["replay", str(run), "--pbn", "--table", "1"]) == 0
    text = capsys.readouterr().out
    hands = read_pbn(text)
    assert len(hands) == 4 and all(h.phase == "over" for h in hands)
    assert main(["replay", str(run), "--deal", "2", "--table", "1"]) == 0
    from_run = capsys.readouterr().out
    path = tmp_path / "run.pbn"
    path.write_text(text)
    assert main(["replay", str(path), "--hand", "2"]) == 0
    from_file = capsys.readouterr().out
    def tricks(out):  # the team names differ (agents in a run, seats in a record); the tricks do not
        return [line for line in out.splitlines() if line.startswith("Trick")]

    assert len(tricks(from_file)) == 13 and tricks(from_file) == tricks(from_run)
    assert "Trick 13" in from_file and "Score sheet" in from_file
    path.write_text(text.replace('[Play "', '[Play "X', 1))
    assert main(["replay", str(path)]) == 2
    assert "[Play]: a seat is one of the letters" in capsys.readouterr().err
