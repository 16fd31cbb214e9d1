"""The build kit: what a maker needs to build the table, generated from the project's own sources.

Each module writes one folder of the repository from the pin tables, the
LED counts and the config, so the documents cannot drift from the code
(``wiring``: the wiring tables and diagrams in ``wiring/``; ``hardware``: the
parts list and the power budget in ``hardware/README.md``, and the
enclosure's renders; ``power``: the power budget for any config).
"""
