"""Imports flow one way: no module of the package or of the build kit imports, however indirectly,
a module that imports it back (function-level imports included: they are cycles that wait for
their moment), a command module imports neither the command line nor another command, and the
package never imports the build kit (the tool uses the table, not the other way round)."""

import ast
from pathlib import Path

HOST = Path(__file__).resolve().parents[1] / "host"
# The table's package, and the build kit beside it (a tool of the repository, not in the wheel).
PACKAGES = ("codenames_board", "buildkit")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (HOST / package).rglob("*.py"):
            parts = path.relative_to(HOST).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in known]
            # `from . import errors` imports the module errors, not the package around it
            found.update(submodules if submodules and len(submodules) == len(node.names) else [target, *submodules])
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module in known and module != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, groups, counter = {}, {}, set(), [], [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_no_module_imports_itself_back():
    imported = graph()
    assert {name.split(".")[0] for name in imported} == set(PACKAGES)  # both read, the build kit's modules too
    assert len([name for name in imported if name.startswith("buildkit.")]) >= 12
    assert cycles(imported) == []


def test_the_package_never_imports_the_build_kit():
    imported = graph()
    for name in imported:
        if name.split(".")[0] == "codenames_board":
            assert not {module for module in imported[name] if module.split(".")[0] == "buildkit"}, name


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_commands_import_neither_the_command_line_nor_each_other():
    imported = graph()
    commands = {name for name in imported if name.startswith("codenames_board.commands.")}
    assert len(commands) >= 8
    for name in commands:
        assert not imported[name] & (commands | {"codenames_board.cli"}), name
