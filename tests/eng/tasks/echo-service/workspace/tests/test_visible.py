import serve


def test_echo_payload_has_the_prefix():
    assert serve.echo_payload("hi", "p-") == {"echo": "p-hi"}
