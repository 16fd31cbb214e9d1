"""The build kit: what a maker needs to build the table, generated from the project's own sources.

Each command writes one folder of the repository from the pin tables, the
LED counts and the config, so the documents cannot drift from the code
(``wiring``: the wiring tables and diagrams in ``wiring/``; ``hardware``: the
parts list and the power budget in ``hardware/README.md``, and the
enclosure's renders; ``power``: the power budget for any config).

A tool of the repository, not of the table: it lives beside the package in
``host/`` and is not in the wheel. It imports the package (the config, the
colours, the rules' tile names, the firmware's pin table); the package never
imports it. Its commands run from a checkout, one line each:
``python host/buildkit COMMAND`` (``__main__.py``).
"""
