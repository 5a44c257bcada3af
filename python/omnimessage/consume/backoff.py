"""`Backoff`: how long a subscription waits before it reconnects, and how often it tries.

The delay of attempt `n` (1-based, counted since the last connection that delivered an event) is
`base * 2 ** (n - 1)`, at most `max_delay`, where `base` is the server's last `retry:` (in ms) or
`initial_delay` when it sent none. No jitter: a delay is a function of the attempt and the
server's `retry:`, so a test can predict it. After `max_attempts` failed attempts in a row the
subscription gives up (`ReconnectsExhausted`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Backoff"]


@dataclass(frozen=True, slots=True)
class Backoff:
    initial_delay: float = 1.0
    max_delay: float = 30.0
    max_attempts: int = 10

    def __post_init__(self) -> None:
        if self.initial_delay < 0 or self.max_delay < 0 or self.max_attempts < 0:
            raise ValueError("delays and the number of attempts are not negative")

    def delay(self, attempt: int, retry_ms: int | None) -> float:
        """Seconds to wait before attempt `attempt`."""
        base = self.initial_delay if retry_ms is None else retry_ms / 1000
        return float(min(self.max_delay, base * 2 ** min(attempt - 1, 62)))
