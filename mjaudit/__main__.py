"""``python -m mjaudit``."""

import sys

from reports.cli import main

sys.exit(main())
