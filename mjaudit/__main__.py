"""``python -m mjaudit``."""

import sys

from mjaudit.cli import main

sys.exit(main())
