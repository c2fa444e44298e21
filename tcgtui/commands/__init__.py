"""One module per subcommand: ``add_arguments(parser, text)`` and ``run(args)``; ``options`` holds the
flags and checks ``play`` and ``watch`` share."""
