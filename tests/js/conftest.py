import pytest

pytest.importorskip("quickjs", reason="the js extra (quickjs) is not installed")
