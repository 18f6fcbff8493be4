"""The ratio table of ``bench_scale --phase ratios``: each large figure over the small one, judged by its goal."""

from bench.bench_ratios import ratios


def _size(p95: float, p95_worker: float, cpu: float, per_s: float) -> dict:
    return {"quiet": {"p95_ms": p95, "neo4j_cpu_ms_per_search": cpu}, "with_worker": {"p95_ms": p95_worker},
            "clients": [{"clients": 1, "searches_per_s": per_s * 2}, {"clients": 8, "searches_per_s": per_s}]}


def test_costs_must_not_grow_and_throughput_must_hold() -> None:
    table = ratios(_size(40.0, 80.0, 20.0, 40.0), _size(100.0, 100.0, 25.0, 30.0))
    assert table["p95_quiet"] == {"small": 40.0, "large": 100.0, "ratio": 2.5, "goal": "<= 1.5", "met": False}
    assert table["p95_with_worker"]["ratio"] == 1.25 and table["p95_with_worker"]["met"] is True
    assert table["neo4j_cpu_per_search"]["met"] is True
    # throughput is judged the other way round: 30 / 40 = 0.75 holds the 0.7 floor
    assert table["throughput_8_clients"]["ratio"] == 0.75 and table["throughput_8_clients"]["met"] is True


def test_a_missing_level_is_no_verdict() -> None:
    small, large = _size(40.0, 80.0, 20.0, 40.0), _size(40.0, 80.0, 20.0, 40.0)
    large["clients"] = [{"clients": 1, "searches_per_s": 10.0}]
    table = ratios(small, large)
    assert table["throughput_8_clients"]["ratio"] is None and table["throughput_8_clients"]["met"] is None
