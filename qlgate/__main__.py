"""``python -m qlgate``: the same command as the ``qlgate`` script (the tests run
it this way, from the checkout, whatever script is installed)."""

import sys

from .cli import main

sys.exit(main())
