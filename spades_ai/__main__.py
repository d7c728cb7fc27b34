import sys

from spades_ai.cli import main

sys.exit(main())
