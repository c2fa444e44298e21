from tcgtui.cli import main

raise SystemExit(main())
