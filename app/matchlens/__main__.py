import sys

from matchlens.main import main

sys.exit(main())
