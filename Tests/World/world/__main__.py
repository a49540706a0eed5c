from world.cli import main

raise SystemExit(main())
