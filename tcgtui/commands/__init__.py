"""One module per subcommand: ``add_arguments(parser, text)`` and ``run(args)``."""
