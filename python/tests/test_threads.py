"""Many threads at once, and the GIL released while evaluating."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import hclvm


def test_many_threads():
    e = hclvm.Expression('[for i in range(n) : format("%s-%d", name, i)]')

    def work(k):
        return [e.evaluate({"n": 50, "name": f"t{k}"}) for _ in range(20)][-1]

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(32)))
    for k, r in enumerate(results):
        assert r[49] == f"t{k}-49"


def test_gil_released_while_evaluating():
    # A long evaluation in one thread; another Python thread counts meanwhile.
    # About a third of a second on one core: a million strings.
    e = hclvm.Expression('length(flatten([for i in range(n) : [for j in range(1000) : "${i}-${j}"]]))')
    ticks = []
    done = threading.Event()

    def counter():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=counter)
    t.start()
    start = time.monotonic()
    result = e.evaluate({"n": 1000})
    elapsed = time.monotonic() - start
    done.set()
    t.join()
    assert result == 1000000
    # With the GIL held throughout, the counter would not run at all.
    assert len(ticks) > 5 or elapsed < 0.02


def test_loads_threads():
    text = "\n".join(f'resource "a" "r{i}" {{\n  x = {i}\n}}' for i in range(200))
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: hclvm.loads(text), range(16)))
    assert all(r == results[0] for r in results)
    assert results[0]["resource"][199] == {"a": {"r199": {"x": 199}}}


def test_python_functions_from_threads():
    # Each call takes the GIL back from an evaluation that released it.
    e = hclvm.Expression("[for i in range(100) : inc(i)]")
    ctx = hclvm.Context(functions={"inc": lambda v: v + 1})
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: e.evaluate(ctx), range(32)))
    assert all(r == list(range(1, 101)) for r in results)


def test_module_from_threads():
    import os

    m = hclvm.Module(os.path.join(os.path.dirname(__file__), "data", "module"))
    with ThreadPoolExecutor(4) as pool:
        names = list(pool.map(lambda r: m.evaluate({"region": r}).outputs["name"], ["a", "b", "c", "d"] * 4))
    assert names == [f"web-{r}" for r in ["a", "b", "c", "d"] * 4]
