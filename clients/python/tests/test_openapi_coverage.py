# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The client held to the control API's own OpenAPI document (GET /openapi.json).

Every operation and every parameter the document has must be sent by some method of the client, and
every request a method sends must be one the document allows: its method and path, its path parameters'
values, its query parameters, its body against the body's schema; sent to a running serve, its answer's
status must be one the document lists and its body valid against that answer's schema. The document itself
must be valid OpenAPI 3.1 (openapi-spec-validator).
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable
from typing import Any

import jsonschema
import openapi_spec_validator
import pytest
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from ssdp_sim import AsyncControlClient, ControlClient, Fault, Latency, SimulatedLAN, calls
from ssdp_sim._http import Request

UDN_OF_1 = "UDN_OF_1"  # replaced by device 1's UDN when a sample is sent

# Each method of the clients with arguments that use every parameter it has. A method without a sample
# here fails test_every_method_has_a_sample.
SAMPLES: dict[str, list[Callable[[Any], Any]]] = {
    "health": [lambda c: c.health()],
    "devices": [lambda c: c.devices()],
    "device": [lambda c: c.device(1), lambda c: c.device(UDN_OF_1)],
    "add_devices": [lambda c: c.add_devices([{"profile": "roku", "friendlyName": "Attic Roku"}])],
    "change_device": [
        lambda c: c.change_device(
            1, friendly_name="Den", max_age=1800, behaviour={"responseLoss": 0.5},
            http_faults={"description": ["503:1"]}, actions=[], state={"powerMode": "DisplayOff"},
        )
    ],
    "remove_device": [lambda c: c.remove_device(3), lambda c: c.remove_device(2, byebye=False)],
    "act": [lambda c: c.act(1, "update")],
    "byebye": [lambda c: c.byebye(1)],
    "vanish": [lambda c: c.vanish(1)],
    "alive": [lambda c: c.alive(1)],
    "update": [lambda c: c.update(1)],
    "reboot": [lambda c: c.reboot(1, down_for=0.2, new_port=True)],
    "network": [lambda c: c.network()],
    "set_network": [
        lambda c: c.set_network(
            loss=0.1, answer_loss=Fault(1, after=1, times=2), duplicate=0.2, latency=(0.01, 0.02),
            reorder=Fault(0.5), reorder_delay=0.05,
        ),
        lambda c: c.set_network(latency=Latency(0, 0.01, times=3)),
        lambda c: c.set_network(),
    ],
    "journal": [
        lambda c: c.journal(kind="device", device=1, since=0, limit=10, action="update"),
        lambda c: c.journal(kind="notify", where={"count": 3}),
        lambda c: c.journal(kind="soap", where={"arguments.NewExternalPort": 8080}),
    ],
    "wait": [lambda c: c.wait(kind="device", device=UDN_OF_1, since=0, count=1, timeout=1, action="update")],
    "reset": [lambda c: c.reset()],
    "clear_journal": [lambda c: c.clear_journal()],
    "openapi": [lambda c: c.openapi()],
}


@pytest.fixture(scope="module")
def lan() -> Any:
    with SimulatedLAN("roku", 3, http_port="any") as lan:
        yield lan


@pytest.fixture(scope="module")
def document(lan: SimulatedLAN) -> dict[str, Any]:
    return lan.control.openapi()


class RecordingClient(ControlClient):
    """Returns the request a method would send instead of sending it."""

    def send(self, call: calls.Call[Any]) -> Any:
        return call.request


class AsyncRecordingClient(AsyncControlClient):
    async def send(self, call: calls.Call[Any]) -> Any:
        return call.request


def sent(name: str) -> list[Request]:
    """What each sample of a method sends; the asyncio client must send the same."""
    blocking, awaited = RecordingClient("http://127.0.0.1:1"), AsyncRecordingClient("http://127.0.0.1:1")
    requests = [sample(blocking) for sample in SAMPLES[name]]
    assert requests == [asyncio.run(sample(awaited)) for sample in SAMPLES[name]], name
    return requests


def client_methods(client: type) -> set[str]:
    return {name for name, _ in inspect.getmembers(client, callable) if not name.startswith("_")} - {"send"}


def methods() -> list[str]:
    """The methods both clients have, in SAMPLES's order: what the coverage is made of."""
    both = client_methods(ControlClient) & client_methods(AsyncControlClient)
    return [name for name in SAMPLES if name in both]


def test_every_method_has_a_sample() -> None:
    for client in (ControlClient, AsyncControlClient):
        names = client_methods(client)
        assert not names - set(SAMPLES), f"{client.__name__}: no sample here for {sorted(names - set(SAMPLES))}"
        assert not set(SAMPLES) - names, f"{client.__name__} has no method {sorted(set(SAMPLES) - names)}"


def test_every_operation_and_parameter_has_a_method(document: dict[str, Any]) -> None:
    missing = uncovered(document, [request for name in methods() for request in sent(name)])
    assert not missing, f"operations and parameters of /openapi.json that no method sends: {missing}"


def test_a_method_left_out_is_caught(document: dict[str, Any]) -> None:
    """What the coverage test says when the client loses a method, or a method a parameter."""
    requests = [request for name in methods() if name != "reset" for request in sent(name)]
    assert uncovered(document, requests) == ["POST /reset"]
    without_limit = [Request(r.method, r.template, r.path, tuple(q for q in r.query if q[0] != "limit"), r.body)
                     for r in requests]
    assert uncovered(document, without_limit) == ["POST /reset", "GET /journal ?limit"]


def uncovered(document: dict[str, Any], requests: list[Request]) -> list[str]:
    """The operations and query parameters of the document that none of ``requests`` uses."""
    covered = {(r.method, r.template) for r in requests}
    missing = [f"{m.upper()} {path}" for path, m, _ in operations(document) if (m.upper(), path) not in covered]
    for path, method, operation in operations(document):
        names = {n for r in requests if (r.method, r.template) == (method.upper(), path) for n, _ in r.query}
        parameters = [p["name"] for p in query_parameters(document, operation)]
        declared = set(parameters)
        for name in parameters:
            # "fields" stands for any other name: a condition on a field
            sent_it = bool(names - declared) if name == "fields" else name in names
            if not sent_it and (method.upper(), path) in covered:
                missing.append(f"{method.upper()} {path} ?{name}")
    return missing


def test_every_request_is_one_the_document_allows(lan: SimulatedLAN, document: dict[str, Any]) -> None:
    udn = lan.devices[0].udn
    for name in methods():
        for request in sent(name):
            problems = disallowed(document, request)
            assert not problems, f"{name}: {request} is not what /openapi.json allows: {problems}"
            request = Request(request.method, request.template, request.path.replace(UDN_OF_1, udn),
                              tuple((k, v.replace(UDN_OF_1, udn)) for k, v in request.query), request.body)
            answer = lan.control.endpoint.send(request, None, 15)
            documented = operation_of(document, request)["responses"]
            status = answer.status
            assert str(status) in documented, f"{name}: {request} answered {status}, not one of {sorted(documented)}"
            assert status < 400, f"{name}: {request} was refused ({status})"
            problems = answer_problems(document, documented[str(status)], answer.json())
            assert not problems, f"{name}: {request} answered {status} with a body the document does not allow: {problems}"


def test_the_document_is_openapi_3_1(document: dict[str, Any]) -> None:
    openapi_spec_validator.validate(document)
    broken = {**document, "paths": {**document["paths"], "/health": {"get": {"responses": {"200": {}}}}}}
    with pytest.raises(OpenAPIValidationError, match="'description' is a required property"):
        openapi_spec_validator.validate(broken)


def test_an_answer_the_document_does_not_describe_is_caught(lan: SimulatedLAN, document: dict[str, Any]) -> None:
    """What the answer check says when a device lacks a field the document requires, or has a wrong type."""
    answer = lan.control.endpoint.send(sent("device")[0], None, 15).json()
    documented = document["paths"]["/devices/{id}"]["get"]["responses"]["200"]
    assert answer_problems(document, documented, answer) == []
    del answer["udn"]
    answer["maxAge"] = "1800"
    assert answer_problems(document, documented, answer) == [
        "answer: 'udn' is a required property", "answer.maxAge: '1800' is not of type 'integer'"]


# MARK: - Reading the document


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, operation) for path, item in document["paths"].items()
            for method, operation in item.items() if method != "parameters"]


def resolve(document: dict[str, Any], value: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in value:
        for part in value["$ref"].removeprefix("#/").split("/"):
            document = document[part]
        value = document
    return value


def parameters(document: dict[str, Any], path: str, operation: dict[str, Any]) -> list[dict[str, Any]]:
    shared = document["paths"][path].get("parameters", [])
    return [resolve(document, p) for p in shared + operation.get("parameters", [])]


def query_parameters(document: dict[str, Any], operation: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in (resolve(document, p) for p in operation.get("parameters", [])) if p["in"] == "query"]


def operation_of(document: dict[str, Any], request: Request) -> dict[str, Any]:
    return document["paths"][request.template][request.method.lower()]


def disallowed(document: dict[str, Any], request: Request) -> list[str]:
    item = document["paths"].get(request.template)
    if item is None or request.method.lower() not in item:
        return [f"no operation {request.method} {request.template}"]
    operation = item[request.method.lower()]
    declared = parameters(document, request.template, operation)
    problems = check_path(document, request, [p for p in declared if p["in"] == "path"])
    query = {p["name"]: p for p in declared if p["in"] == "query"}
    for name, value in request.query:
        if name in query:
            schema = resolve(document, query[name]["schema"])
            problems += schema_problems(schema, coerce(schema, value), f"?{name}")
        elif "fields" not in query:
            problems.append(f"?{name}: not a parameter of {request.template}")
    body = operation.get("requestBody")
    if request.body is not None:
        if body is None:
            problems.append("a body, which the operation takes none of")
        else:
            schema = {**body["content"]["application/json"]["schema"], "components": document["components"]}
            problems += schema_problems(schema, request.body, "body")
    elif body is not None and body.get("required"):
        problems.append("no body, which the operation requires")
    return problems


def check_path(document: dict[str, Any], request: Request, path_parameters: list[dict[str, Any]]) -> list[str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(request.template))
    match = re.fullmatch(pattern, request.path)
    if match is None:
        return [f"{request.path} does not fill {request.template}"]
    problems = []
    for parameter in path_parameters:
        schema = resolve(document, parameter["schema"])
        problems += schema_problems(schema, match[parameter["name"]], f"{{{parameter['name']}}}")
    return problems


def coerce(schema: dict[str, Any], text: str) -> Any:
    """A query value as the type its schema names (the query carries text)."""
    kinds = {"integer": int, "number": float, "boolean": lambda t: {"true": True, "false": False}[t]}
    try:
        return kinds.get(schema.get("type"), str)(text)
    except (KeyError, ValueError):
        return text


def schema_problems(schema: dict[str, Any], value: Any, where: str) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(value), key=lambda error: list(error.absolute_path))
    return [f"{where}{''.join(f'.{part}' if isinstance(part, str) else f'[{part}]' for part in error.absolute_path)}: "
            f"{error.message}" for error in errors]


def answer_problems(document: dict[str, Any], response: dict[str, Any], body: Any) -> list[str]:
    """What in ``body`` the documented ``response`` (an entry of an operation's responses) does not allow."""
    response = resolve(document, response)
    content = response.get("content", {}).get("application/json")
    if content is None:
        return [] if body is None else ["answer: a JSON body, where the document describes none"]
    return schema_problems({**content.get("schema", {}), "components": document["components"]}, body, "answer")
