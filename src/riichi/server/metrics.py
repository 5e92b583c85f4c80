"""What an operator watches, in the Prometheus text format: one registry per process,
served on an address of the operator's choosing (``riichi serve --metrics``), never on
the site's public port.

Counted as it happens: the actions each live table commits, the time from a person's
action arriving to its acknowledgement (which comes only once the action is stored),
the messages and requests refused. Read when scraped, from the process's own state:
the live tables by kind, the open connections, the writer's queue and the relay's
connections, and what features add (``Metrics.gauges``: the chips in play and the
house's exposure, the review pool's use). With ``--workers N`` each worker serves its
own registry on the first free port of ``2N`` from the one named (a replacement starts
before the worker it replaces stops), and Prometheus scrapes them all as targets: a
worker's gauges read its own state, which one shared registry could not.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from prometheus_client.core import Metric

    from riichi.server.hub import Server

# seconds: an acknowledgement is a few milliseconds on a quiet site, tens under load
ACK_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


class Metrics:
    """One process's metrics: counters its tables add to, gauges read from ``Server``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter(
            "riichi_actions_committed",
            "Actions stored: people's, computers' and the clocks'.",
            registry=self.registry,
        )
        self.acks = Histogram(
            "riichi_ack_seconds",
            "From a person's action arriving to its acknowledgement (after it is stored).",
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.takeovers = Counter(
            "riichi_lease_takeovers",
            "Tables this process took over from another (dead, or handing over).",
            registry=self.registry,
        )
        self.handed_over = Counter(
            "riichi_tables_handed_over",
            "Tables this process handed back as it stopped.",
            registry=self.registry,
        )
        # what features add, read at each scrape (the money feature's chips, the
        # review pool's use): each gives its metric families
        self.gauges: list[Callable[[], Iterable[Metric]]] = []
        self.refused = Counter(
            "riichi_refused",
            "Actions and messages a table refused, and HTTP requests refused, by kind.",
            ["kind"],
            registry=self.registry,
        )

        self.redis_errors = Counter(
            "riichi_redis_errors",
            "Redis requests that failed, by what they were for (the site goes on without).",
            ["what"],
            registry=self.registry,
        )

    def watch(self, server: Server) -> None:
        """Read ``server``'s state at each scrape."""
        self.registry.register(_Site(server))

    def serve(self, address: str, span: int = 1) -> int:
        """Serve the registry on ``host:port`` (a thread of its own), or on the first
        free port of the ``span`` from it; the port."""
        host, _, port = address.rpartition(":")
        if not port.isdigit():
            raise ValueError(f"--metrics is HOST:PORT, got {address!r}")
        first = int(port)
        for tried in range(first, first + span):
            try:
                start_http_server(tried, host or "127.0.0.1", registry=self.registry)
            except OSError:
                if tried == first + span - 1:
                    raise
                continue
            return tried
        raise ValueError(f"no port to serve metrics on from {address!r} ({span} tried)")


class _Site(Collector):
    def __init__(self, server: Server) -> None:
        self.server = server

    def collect(self) -> Iterator[Metric]:
        hub = self.server
        kinds = Tally(t.stored.kind for t in list(hub.registry.tables.values()))
        live = GaugeMetricFamily(
            "riichi_live_tables", "Tables held by this process.", labels=["kind"]
        )
        for kind, count in sorted(kinds.items()):
            live.add_metric([kind], count)
        yield live
        yield gauge("riichi_sockets", "Open table connections.", sum(hub.sockets.values()))
        yield gauge("riichi_spectators", "Spectators of this process's tables.", _spectators(hub))
        yield gauge(
            "riichi_writer_queue",
            "Writes waiting for the group commit.",
            hub.registry.writer.waiting(),
        )
        relayed = 0 if hub.relay is None else len(hub.relay.local)
        yield gauge(
            "riichi_relayed_connections", "Connections relayed to another process.", relayed
        )
        for gauges in list(hub.registry.metrics.gauges):
            yield from gauges()


def gauge(name: str, text: str, value: float) -> GaugeMetricFamily:
    """One number, for a feature's gauges."""
    return GaugeMetricFamily(name, text, value=value)


def _spectators(hub: Server) -> int:
    return sum(t.audience.spectators for t in list(hub.registry.tables.values()))


__all__ = ["ACK_BUCKETS", "Metrics", "gauge"]
