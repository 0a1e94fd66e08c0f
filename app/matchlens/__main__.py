import sys

try:
    from matchlens.main import main
except KeyboardInterrupt:  # Ctrl+C before main() could catch it: no traceback either
    sys.stderr.write("matchlens: interrupted\n")
    sys.exit(130)

sys.exit(main())
