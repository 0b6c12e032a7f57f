"""The JSON-RPC side of the language server: every request gets a response, nothing crashes.

pygls 2 leaves a request unanswered when its params do not deserialize (it raises out of the
JSON decoder's object hook), answers requests after ``shutdown`` with silence, runs handlers
before ``initialize``, puts Python tracebacks in error responses, and logs each malformed
message with a traceback (and, for notifications, pops up "Error in server"). This subclass of
its protocol fixes that, following the LSP specification:

- params that do not deserialize: ``InvalidParams`` (a notification: dropped);
- a method the server does not offer: ``MethodNotFound``, whatever its params (pygls answers
  ``InvalidParams`` when they do not fit the method's type, or are missing);
- before ``initialize``: ``ServerNotInitialized`` for requests, notifications dropped (but
  ``exit``);
- after ``shutdown``: ``InvalidRequest`` for requests, notifications dropped (but ``exit``);
  ``shutdown`` itself answered even while other requests end (pygls' own failed then);
- an error response never carries a traceback; a malformed message is logged once per kind, in
  one line, its method name cut to ``NAME_CHARS`` characters (in responses too).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import Any, cast

import attrs
from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    MsgId,
    RPCNotification,
    RPCRequest,
)
from pygls.protocol.language_server import lsp_method

log = logging.getLogger(__name__)

SERVER_NOT_INITIALIZED = types.ErrorCodes.ServerNotInitialized
INVALID_REQUEST = types.ErrorCodes.InvalidRequest
INVALID_PARAMS = types.ErrorCodes.InvalidParams
METHOD_NOT_FOUND = types.ErrorCodes.MethodNotFound
NAME_CHARS = 200


def shown_name(method: object) -> str:
    """A method name as logs and error messages show it: ``?`` when it is not a string, cut
    to ``NAME_CHARS`` characters."""
    if not isinstance(method, str):
        return "?"
    return method if len(method) <= NAME_CHARS else method[:NAME_CHARS] + "…"


@attrs.define
class Rejected:
    """A message that could not be read: answered with ``error`` when it was a request."""

    id: MsgId | None
    method: str
    error: types.ResponseError | None


def _valid_id(value: object) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


class TestmendProtocol(LanguageServerProtocol):
    __test__ = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initialized = False
        self._logged: set[str] = set()

    def log_once(self, kind: str, message: str) -> None:
        """One warning line per kind of problem for the whole session."""
        if kind not in self._logged:
            self._logged.add(kind)
            log.warning("%s (further ones are not logged)", message)

    # -- reading ---------------------------------------------------------------------------------

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls' own reading, but a message that does not fit its type becomes :class:`Rejected`
        instead of an exception that leaves the request unanswered."""
        if "jsonrpc" not in data:
            return data
        try:
            return self._structure(data)
        except Exception as exc:
            method = data.get("method")
            name = shown_name(method)
            if "method" not in data or "id" not in data:
                self.log_once(
                    f"malformed:{name}", f"malformed {name} message: {type(exc).__name__}"
                )
                return Rejected(None, name, None)  # a notification or a response: dropped
            msg_id = data["id"] if _valid_id(data["id"]) else None
            if msg_id is not None and not self.offers(method):
                message = f"method not found: {name}"
                self.log_once("method-not-found", message)
                return Rejected(msg_id, name, types.ResponseError(METHOD_NOT_FOUND, message))
            self.log_once(f"malformed:{name}", f"malformed {name} message: {type(exc).__name__}")
            code = INVALID_PARAMS if msg_id is not None else INVALID_REQUEST
            what = "params" if code == INVALID_PARAMS else "request id"
            return Rejected(
                msg_id, name, types.ResponseError(code=code, message=f"invalid {what} for {name}")
            )

    def offers(self, method: object) -> bool:
        """Whether a handler (pygls' own or the server's) answers this method."""
        return isinstance(method, str) and (
            method == types.CANCEL_REQUEST  # pygls handles it before any handler
            or method in self.fm.builtin_features
            or method in self.fm.features
        )

    def _structure(self, data: dict[str, Any]) -> Any:
        """As ``JsonRPCProtocol.structure_message`` (pygls 2), without its traceback logging."""
        converter = self._converter
        if "id" in data:
            if "error" in data:
                return converter.structure(data, types.ResponseErrorMessage)
            if "method" in data:
                request_type = self.get_message_type(data["method"]) or JsonRPCRequestMessage
                return converter.structure(data, request_type)
            response_type = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
            return converter.structure(data, response_type)
        notification_type = self.get_message_type(data.get("method", "")) or JsonRPCNotification
        return converter.structure(data, notification_type)

    # -- dispatching -----------------------------------------------------------------------------

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls' own, but over a copy of the pending requests: its loop over them failed with
        "dictionary changed size during iteration" when a request ended meanwhile (the results
        list a client asked for as it shut down), and ``shutdown`` got an internal error."""
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current_id = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current_id and not future.done():
                future.cancel()
        self._shutdown = True
        return None

    def handle_message(self, message: Any) -> None:
        if isinstance(message, dict):  # no "jsonrpc": not a JSON-RPC 2.0 message
            self.log_once("not-json-rpc", 'a message without "jsonrpc": "2.0"')
            if "method" in message and _valid_id(message.get("id")):
                error = types.ResponseError(code=INVALID_REQUEST, message="not JSON-RPC 2.0")
                self._send_response(message["id"], None, error)
            return
        rejected = isinstance(message, Rejected)
        if not rejected and not (
            isinstance(message, (RPCRequest, RPCNotification))
            and getattr(message, "jsonrpc", None) == self.VERSION
        ):
            super().handle_message(message)  # responses from the client, or pygls' own warning
            return
        method = message.method
        name = shown_name(method)
        msg_id = getattr(message, "id", None)
        request = (message.error is not None) if rejected else isinstance(message, RPCRequest)
        refusal: types.ResponseError | None = None
        if method == types.EXIT:
            pass
        elif self._shutdown:
            refusal = types.ResponseError(
                code=INVALID_REQUEST, message=f"{name}: the server is shutting down"
            )
        elif not self.initialized and method != types.INITIALIZE:
            refusal = types.ResponseError(
                code=SERVER_NOT_INITIALIZED, message=f"{name}: the server is not initialized"
            )
        if refusal is not None:
            self.log_once(f"refused:{refusal.code}", refusal.message)
            if request and _valid_id(msg_id):
                self._send_response(cast(MsgId, msg_id), None, refusal)
            return
        if rejected:
            if message.error is not None:  # an unusable id is answered with null, as JSON-RPC says
                self._send_response(cast(MsgId, msg_id), None, message.error)
            return
        if not self.offers(method):
            self.log_once("method-not-found", f"method not found: {name}")
            if request:
                error = types.ResponseError(METHOD_NOT_FOUND, f"method not found: {name}")
                self._send_response(cast(MsgId, msg_id), None, error)
            return  # a notification nobody handles ($/… ones included): dropped
        if method == types.INITIALIZE:
            self.initialized = True
        super().handle_message(message)

    # -- answering -------------------------------------------------------------------------------

    def _send_response(
        self,
        msg_id: MsgId,
        result: Any | None = None,
        error: types.ResponseError | None = None,
    ) -> None:
        if error is not None and error.data is not None:
            # pygls puts the Python traceback of an internal error here: not for the client.
            error = types.ResponseError(code=error.code, message=error.message)
        super()._send_response(msg_id, result, error)
