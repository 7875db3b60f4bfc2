"""``notebooks/walkthrough.ipynb`` runs top to bottom in the venv's kernel and shows what it promises."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from planner.maps import assets

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "walkthrough.ipynb"


def _text(cell) -> str:
    # The kernel flushes print's separate writes on a timer, so under load one line can arrive as
    # several stream outputs: stream text is joined as written, rich outputs each on their own line.
    stream = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.output_type == "stream")
    parts = [stream]
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        parts.append(data.get("text/plain", ""))
        parts.append(data.get("text/html", ""))
    return "\n".join(parts)


@pytest.fixture(scope="module")
def executed(tmp_path_factory) -> nbformat.NotebookNode:
    assets.ensure()
    out = tmp_path_factory.mktemp("nbmaps")
    mp = pytest.MonkeyPatch()
    mp.setenv("PLANNER_MAPS_DIR", str(out))  # the kernel inherits the environment: maps go to tmp
    try:
        nb = nbformat.read(NOTEBOOK, as_version=4)
        # "python3" resolves to the running interpreter's ipykernel: the kernel runs in this venv
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    finally:
        mp.undo()
    nb.metadata["_maps_dir"] = str(out)
    return nb


def test_notebook_is_stored_clean():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert nb.metadata["kernelspec"]["name"] == "python3"


def test_walkthrough_runs(executed):
    code = [c for c in executed.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, [e.get("evalue") for e in errors]
    out = [_text(c) for c in code]
    assert "SBB-Monopoly on 2021-09-11: 69 stations" in out[0]
    assert "valid: False" in out[1] and "Zürich Oerlikon" in out[1]  # the demo feed misses most targets
    assert "Luzern–Rotkreuz" in out[2]
    assert "roll 2: go to Wohlen AG, arrival 13:46" in out[3]
    assert "saved walkthrough-target.html" in out[4]
    assert "<iframe srcdoc=" in out[4] and "leaflet" in out[4]
    saved = Path(executed.metadata["_maps_dir"]) / "walkthrough-target.html"
    assert saved.is_file() and "<script src=" not in saved.read_text("utf-8")
