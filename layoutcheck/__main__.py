from layoutcheck.cli import main

raise SystemExit(main())
