# SPDX-License-Identifier: Apache-2.0 (see LICENSE)
"""The control API's clients: ``ControlClient`` blocks, ``AsyncControlClient`` awaits.

Each method is a call of ``ssdp_sim.calls`` (same name, same typed arguments, same documentation), sent
and read back: the blocking and the asyncio client cannot drift apart, and neither can send what the
calls do not. docs/control.md has the endpoint behind each.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from . import calls
from ._http import Endpoint
from .calls import Call

P = ParamSpec("P")
T = TypeVar("T")
Method = TypeVar("Method", bound=Callable[..., Any])


class _Client:
    def __init__(self, url: str, *, token: str | None = None, timeout: float = 10.0) -> None:
        """``url`` is the control API's (``http://127.0.0.1:8787``); ``token`` the one serve was given
        (default: ``SSDP_SIM_CONTROL_TOKEN``); ``timeout`` bounds each call but a journal wait, which
        gets its own timeout and a margin."""
        self.endpoint = Endpoint(url)
        self.token = token if token is not None else os.environ.get("SSDP_SIM_CONTROL_TOKEN")
        self.timeout = timeout

    @property
    def url(self) -> str:
        return self.endpoint.url

    def _timeout(self, call: Call[Any]) -> float:
        return max(self.timeout, call.extra_timeout)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"


def _blocking(make: Callable[P, Call[T]]) -> Callable[Concatenate[ControlClient, P], T]:
    def method(self: ControlClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.send(make(*args, **kwargs))

    return _named_after(method, make)


def _awaited(make: Callable[P, Call[T]]) -> Callable[Concatenate[AsyncControlClient, P], Awaitable[T]]:
    async def method(self: AsyncControlClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.send(make(*args, **kwargs))

    return _named_after(method, make)


def _named_after(method: Method, make: Callable[..., Any]) -> Method:
    """The method with the call's name, documentation and signature (``help()``, an IDE and
    ``inspect.signature`` show its arguments, and what it returns rather than the ``Call``)."""
    method.__name__ = method.__qualname__ = make.__name__
    method.__doc__ = make.__doc__
    call = inspect.signature(make)
    returned = re.fullmatch(r"Call\[(.*)\]", str(call.return_annotation))
    method.__signature__ = call.replace(  # type: ignore[attr-defined]
        parameters=[inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY), *call.parameters.values()],
        return_annotation=returned[1] if returned else call.return_annotation,
    )
    return method


class ControlClient(_Client):
    """Drives a running ``ssdp-sim serve --control``, blocking: every endpoint of docs/control.md."""

    def send(self, call: Call[T]) -> T:
        """Sends one call and reads its answer: raises ``ControlError`` for a refusal, and
        ``JournalWaitTimeout`` for a wait that timed out."""
        return call.result(self.endpoint.send(call.request, self.token, self._timeout(call)))

    health = _blocking(calls.health)
    devices = _blocking(calls.devices)
    device = _blocking(calls.device)
    add_devices = _blocking(calls.add_devices)
    change_device = _blocking(calls.change_device)
    remove_device = _blocking(calls.remove_device)
    act = _blocking(calls.act)
    byebye = _blocking(calls.byebye)
    vanish = _blocking(calls.vanish)
    alive = _blocking(calls.alive)
    update = _blocking(calls.update)
    reboot = _blocking(calls.reboot)
    network = _blocking(calls.network)
    set_network = _blocking(calls.set_network)
    reset = _blocking(calls.reset)
    journal = _blocking(calls.journal)
    wait = _blocking(calls.wait)
    clear_journal = _blocking(calls.clear_journal)
    openapi = _blocking(calls.openapi)


class AsyncControlClient(_Client):
    """``ControlClient`` for asyncio: the same methods, awaited."""

    async def send(self, call: Call[T]) -> T:
        return call.result(await self.endpoint.send_async(call.request, self.token, self._timeout(call)))

    health = _awaited(calls.health)
    devices = _awaited(calls.devices)
    device = _awaited(calls.device)
    add_devices = _awaited(calls.add_devices)
    change_device = _awaited(calls.change_device)
    remove_device = _awaited(calls.remove_device)
    act = _awaited(calls.act)
    byebye = _awaited(calls.byebye)
    vanish = _awaited(calls.vanish)
    alive = _awaited(calls.alive)
    update = _awaited(calls.update)
    reboot = _awaited(calls.reboot)
    network = _awaited(calls.network)
    set_network = _awaited(calls.set_network)
    reset = _awaited(calls.reset)
    journal = _awaited(calls.journal)
    wait = _awaited(calls.wait)
    clear_journal = _awaited(calls.clear_journal)
    openapi = _awaited(calls.openapi)
