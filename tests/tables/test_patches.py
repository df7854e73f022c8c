"""MutableURI: what patch_uri hooks edit."""

from qlgate.tables.patches import MutableURI


def test_unmodified_uris_keep_their_text():
    assert MutableURI("http://h/p?REST-PAYLOAD&a=").format() == "http://h/p?REST-PAYLOAD&a="


def test_editing_parameters():
    uri = MutableURI("http://h:8/p?a=1&b=&a=2")
    assert uri.get_param("a") == ["1", "2"] and uri.host == "h" and uri.port == 8
    uri.removeEmptyParams().set_param("a", 3).add_param("c", "x y")
    assert uri.format() == "http://h:8/p?a=3&c=x%20y"
    uri.remove_param("a")
    assert uri.params() == {"c": "x y"}
