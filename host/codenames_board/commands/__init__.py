"""The commands of ``codenames-board``: one module each, with ``add_parser(commands, tr)`` (its
options) and ``main(args, tr)`` (its exit code). They share only ``clibase`` (exit codes, the
configuration loaded with its one-line messages, the language, output helpers); ``cli`` puts
them together. A command module never imports ``cli`` or another command.
"""
