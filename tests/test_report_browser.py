"""The report page in a real browser: headless Chromium driven through selenium and the system chromedriver.

Clicks a source line and checks which lines of the other panes light up; the expected counts are what
`tritonscope map KERNEL --line L` prints for the same kernel. Screenshots go to test-artifacts/ (gitignored).
Skips only when Chromium cannot be started (selenium, chromium or chromedriver missing or failing).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, run_cli

CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = REPO / "test-artifacts"
CHROME_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--no-first-run", "--window-size=1600,1000")


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install selenium; it is in the dev extra)")
    driver_path = shutil.which("chromedriver") or CHROMEDRIVER
    if not Path(driver_path).exists():
        pytest.skip("chromedriver not found (apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="tritonscope-chromium-")
    options = webdriver.ChromeOptions()
    for arg in (*CHROME_ARGS, f"--user-data-dir={profile}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except WebDriverException as exc:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"Chromium could not be started: {exc.msg or exc}")
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def open_page(driver, path: Path) -> None:
    driver.get(path.resolve().as_uri())
    driver.get_log("browser")  # start each page with an empty console


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def source_line(driver, n: int):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, ".pane.src .body > div")[n - 1]


def click(driver, element) -> None:
    """A real mouse click near the left end of a line (its centre can lie far right of a wide line, and
    clicking there would scroll the pane sideways); the pane is scrolled to column 0 first."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});"
                          "var b = arguments[0].closest('.body'); if (b) b.scrollLeft = 0;", element)
    offset = -element.size["width"] // 2 + 12 if element.tag_name == "div" else 0
    ActionChains(driver).move_to_element_with_offset(element, offset, 0).click().perform()


def marked(driver, cls: str) -> dict[str, int]:
    """How many lines of each pane carry the class `cls` (hl, sel, chn, hw)."""
    from selenium.webdriver.common.by import By

    counts = {}
    for pane in driver.find_elements(By.CSS_SELECTOR, ".pane[data-stage]"):
        n = len(pane.find_elements(By.CSS_SELECTOR, f".body > div.{cls}"))
        if n:
            counts[pane.get_attribute("data-stage")] = n
    return counts


def marked_lines(driver, stage: str, cls: str) -> list[int]:
    """The 1-based numbers of the lines of one pane that carry `cls`."""
    return driver.execute_script(
        "var b = document.querySelector('.pane[data-stage=\"' + arguments[0] + '\"] .body'), out = [];"
        "for (var i = 0; i < b.children.length; i++) if (b.children[i].classList.contains(arguments[1]))"
        " out.push(i + 1); return out;", stage, cls)


def write_report(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / f"{name}.html"
    r = run_cli("report", *args, "-o", str(out))
    assert r.returncode == 0, r.stderr
    return out


def screenshot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    assert driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def test_softmax_sample_cuda90_click_to_highlight(browser, compiled_entries, tmp_path):
    """sample_kernels/softmax.py line 24 `numerator = tl.exp(x - x_max)`: map --line 24 gives
    ttgir 3, llir 20, ptx 24, sass 48 ops."""
    from selenium.webdriver.common.by import By

    entry = compiled_entries["softmax", "cuda:90"]
    page = write_report(tmp_path, "softmax-sample", str(entry), "--stages", "ttgir,llir,ptx,sass")
    open_page(browser, page)
    line = source_line(browser, 24)
    assert line.text.strip().endswith("numerator = tl.exp(x - x_max)")
    click(browser, line)
    assert marked(browser, "hl") == {"ttgir": 3, "llir": 20, "ptx": 24, "sass": 48}
    assert marked(browser, "sel") == {"python": 1}
    assert "sel" in line.get_attribute("class").split()
    assert browser.find_element(By.ID, "status").text == "line 24 → ttgir 3 · llir 20 · ptx 24 · sass 48"
    # line 23 `x_max = tl.max(x, axis=0)`: its tt.reduce's closing line lights up with it, and is no op of
    # its own in the counts (the status said ttgir 4 where map says 3)
    click(browser, source_line(browser, 23))
    said = browser.find_element(By.ID, "status").text
    lit = browser.find_elements(By.CSS_SELECTOR, '.pane[data-stage="ttgir"] .body > div.hl')
    assert said.startswith("line 23 → ttgir 3 ·") and len(lit) == 4, said
    click(browser, source_line(browser, 24))
    # each pane scrolled its first highlighted line into view
    for stage in ("ttgir", "llir", "ptx", "sass"):
        first = browser.find_element(By.CSS_SELECTOR, f'.pane[data-stage="{stage}"] .body > div.hl')
        body = browser.find_element(By.CSS_SELECTOR, f'.pane[data-stage="{stage}"] .body')
        top = browser.execute_script("return arguments[0].offsetTop - arguments[1].scrollTop", first, body)
        assert 0 <= top < body.size["height"], stage
    screenshot(browser, "report-softmax-sample-cuda90")

    # clicking an op: its source line, and the ops of the other stages with its exact position
    ttgir_ops = browser.find_elements(By.CSS_SELECTOR, '.pane[data-stage="ttgir"] .body > div.hl')
    click(browser, ttgir_ops[-1])  # %num = math.exp ... (kernels column 21)
    chain = ttgir_ops[-1].get_attribute("data-c")
    same = browser.find_elements(By.CSS_SELECTOR, f'.pane[data-stage] .body > div[data-c="{chain}"]')
    assert marked(browser, "sel") == {"python": 1, "ttgir": 1}
    hl = marked(browser, "hl")
    assert sum(hl.values()) == len(same) - 1 and "ttgir" not in hl and hl["llir"] >= 1 and hl["ptx"] >= 1
    # the rest of line 24 stays weakly marked: every line-24 op is sel, hl or hw
    hw = marked(browser, "hw")
    for stage, n in {"ttgir": 3, "llir": 20, "ptx": 24, "sass": 48}.items():
        assert hw.get(stage, 0) + hl.get(stage, 0) + (stage == "ttgir") == n, stage
    assert console_errors(browser) == []


def test_inductor_kernel_click_to_highlight(browser, inductor_cache, inductor_src, tmp_path):
    """triton_per_fused_gelu_gelu_backward_sum_view_4 line 37 (a tl.sum): ttgir 4 ops (5 lines: the reduce's
    closing line carries its types and location), llir 29, ptx 25."""
    page = write_report(tmp_path, "inductor", "triton_per_fused_gelu_gelu_backward_sum_view_4", "--cache-dir",
                        str(inductor_cache), "--substitute-path", "/tmp/rc/inductor", str(inductor_src))
    open_page(browser, page)
    click(browser, source_line(browser, 37))
    assert marked(browser, "hl") == {"ttgir": 5, "llir": 29, "ptx": 25}
    screenshot(browser, "report-inductor-gelu")
    click(browser, source_line(browser, 34))
    assert marked(browser, "hl") == {"ttgir": 8, "llir": 7, "ptx": 7}
    assert console_errors(browser) == []


def test_inline_chain_layout_link_and_loads_row(browser, cache39, corpus, tmp_path):
    """Corpus softmax (kernels.py): line 91 `row_max = _row_max(row)` inlines the helper's line 36."""
    from selenium.webdriver.common.by import By

    page = write_report(tmp_path, "softmax-corpus", "softmax_kernel", "--cache-dir", str(cache39), "--target",
                        "cuda:90", "--source-root", str(corpus))
    open_page(browser, page)
    click(browser, source_line(browser, 91))
    # ttgir: the reduce's 3 ops, and its closing line (`}) : (tensor<1024xf32, #blocked>) -> f32 loc(...)`)
    assert marked(browser, "hl") == {"ttgir": 4, "llir": 51, "ptx": 30}
    assert marked_lines(browser, "python", "chn") == [36]
    # an op of the helper: its user line is selected, the helper line is on the chain
    op = browser.find_elements(By.CSS_SELECTOR, '.pane[data-stage="ttgir"] .body > div')[29]
    click(browser, op)
    assert marked_lines(browser, "python", "sel") == [91] and marked_lines(browser, "python", "chn") == [36]
    assert "kernels.py:36:9" in browser.find_element(By.ID, "status").text
    # the helper's own line: the ops written there (map --line 36), the call's line on their chain
    helper = source_line(browser, 36)
    assert helper.find_elements(By.CSS_SELECTOR, ".gut i.inl")  # counted at 91, shown dim at 36
    click(browser, helper)
    assert marked(browser, "hl") == {"ttgir": 4, "llir": 51, "ptx": 30}
    assert marked_lines(browser, "python", "sel") == [36] and marked_lines(browser, "python", "chn") == [91]
    # a layout reference opens the layouts tab on its card
    link = browser.find_elements(By.CSS_SELECTOR, '.pane[data-stage="ttgir"] a.lay')[5]
    click(browser, link)
    card = browser.find_element(By.ID, "layout-blocked")
    assert card.is_displayed()
    # a loads row selects its source line
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="loads"]').click()
    rows = browser.find_elements(By.CSS_SELECTOR, "table.loads tr[data-s]")
    assert [r.get_attribute("data-s") for r in rows] == ["90", "97"]
    click(browser, rows[0])
    assert marked_lines(browser, "python", "sel") == [90]
    assert marked(browser, "hl") == {"ttgir": 1, "llir": 17, "ptx": 17}
    screenshot(browser, "report-softmax-corpus-loads")
    assert console_errors(browser) == []


def test_escaped_page_runs_no_planted_script(browser, cache39, tmp_path):
    from test_report import EVIL, _evil_entry

    cache = _evil_entry(cache39, tmp_path)
    page = write_report(tmp_path, "evil", "--cache-dir", str(cache), "--stages", "ttgir,llir")
    open_page(browser, page)
    assert browser.execute_script("return document.querySelectorAll('script').length") == 2
    assert browser.find_element("css selector", "h1").text == EVIL
    assert console_errors(browser) == []


def test_torch_compile_pane(browser, tmp_path):
    """The provenance pane of a torch.compile kernel (issue 20) is the first tab, shown, and lists the
    model lines; clicking the source still highlights the stages."""
    from selenium.webdriver.common.by import By

    data = REPO / "tests" / "data" / "inductor-provenance-h100-triton3.6"
    page = tmp_path / "prov.html"
    r = run_cli("report", "22DEHI5G", "--cache-dir", str(data / "triton_cache"), "--inductor-dir",
                str(data / "inductor_cache"), "-o", str(page))
    assert r.returncode == 0, r.stderr
    open_page(browser, page)
    tabs = browser.find_elements(By.CSS_SELECTOR, ".tab")
    assert tabs[0].get_attribute("data-tab") == "torch-compile" and "on" in tabs[0].get_attribute("class")
    panel = browser.find_element(By.ID, "panel-torch-compile")
    assert panel.is_displayed()
    assert "provenance_model.py:21" in panel.text and "y = torch.softmax(y, dim=-1) * 2.0" in panel.text
    click(browser, tabs[1])  # another tab, and back
    assert not panel.is_displayed()
    click(browser, tabs[0])
    assert panel.is_displayed()
    click(browser, source_line(browser, 34))  # tmp0 = tl.load(in_ptr0 + ...)
    assert marked(browser, "hl"), "a source click highlights the stages"
    assert console_errors(browser) == []
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "report-torch-compile.png"))


def test_helper_file_of_another_module(browser, helper_module, tmp_path):
    """hm_kernel.py line 13 calls hm_helpers.dequant: its file has a button; its line 7 selects the ops
    written there (map --file hm_helpers.py --line 7), and line 13, the call, is on their chain; an op
    of the helper marks the helper's line."""
    import json

    from selenium.webdriver.common.by import By

    page = write_report(tmp_path, "helper-module", "unpack_kernel", "--cache-dir", str(helper_module / "cache"))
    open_page(browser, page)
    buttons = browser.find_elements(By.CSS_SELECTOR, ".files .sf")
    assert [b.text for b in buttons] == ["hm_kernel.py", "hm_helpers.py"]
    index = buttons[1].get_attribute("data-file")
    helper = browser.find_element(By.CSS_SELECTOR, f'.pane.src .body[data-file="{index}"]')
    assert not helper.is_displayed()
    buttons[1].click()
    assert helper.is_displayed() and not source_line(browser, 13).is_displayed()
    line7 = helper.find_elements(By.CSS_SELECTOR, ":scope > div")[6]
    assert line7.text.strip().endswith("lo = (packed & 0xF).to(tl.float32) - 8.0")
    click(browser, line7)
    m = json.loads(run_cli("map", "unpack_kernel", "--cache-dir", str(helper_module / "cache"), "--file",
                           "hm_helpers.py", "--line", "7", "--json").stdout)
    want = {s["stage"]: s["count"] for s in m["stages"] if s["stage"] in ("ttgir", "llir", "ptx") and s["count"]}
    assert marked(browser, "hl") == want and want.get("ttgir")
    assert "sel" in line7.get_attribute("class").split()
    assert marked_lines(browser, "python", "chn") == [13]
    assert browser.find_element(By.ID, "status").text.startswith("hm_helpers.py:7 →")
    # back to the kernel's file: an op written in the helper selects line 13 and marks the helper's line
    buttons[0].click()
    op = browser.find_elements(By.CSS_SELECTOR, '.pane[data-stage="ttgir"] .body > div.hl')[0]
    click(browser, op)
    assert marked_lines(browser, "python", "sel") == [13]
    assert "sel" in line7.get_attribute("class").split()
    assert "hit" in buttons[1].get_attribute("class").split()
    screenshot(browser, "report-helper-module")
    assert console_errors(browser) == []


def test_a_helpers_file_is_never_marked_as_the_kernels_when_that_is_not_found(browser, tmp_path):
    """Helper 121: with the kernel's own file not found but a helper's embedded, every source mark went onto
    the helper's file at the kernel's line numbers (hm_helpers.py line 13 selected for the kernel's 13)."""
    from fixtures_compile import HELPERS_PY, KERNEL_PY
    from selenium.webdriver.common.by import By

    src = tmp_path / "src"
    src.mkdir()
    (src / "hm_helpers.py").write_text(HELPERS_PY + "\n" * 10 + "# line 18\n")  # (lines past 13 to mark)
    (src / "hm_kernel.py").write_text(KERNEL_PY)
    r = run_cli("compile", f"{src / 'hm_kernel.py'}::unpack_kernel", "--signature",
                "w_ptr=*u8,s_ptr=*fp32,out_ptr=*fp32,n=i32", "--constexpr", "BLOCK=256", "--target", "cuda:90",
                "--cache-dir", str(tmp_path / "cache"))
    assert r.returncode == 0, r.stderr
    (src / "hm_kernel.py").unlink()
    page = write_report(tmp_path, "helper-only", "unpack_kernel", "--cache-dir", str(tmp_path / "cache"))
    open_page(browser, page)
    (helper,) = browser.find_elements(By.CSS_SELECTOR, '.pane.src .body:not([data-file="main"])')
    index = helper.get_attribute("data-file")
    # an op written in the helper (line 7, called on the kernel's line 13), then one of the kernel's own line 11
    chains = browser.execute_script("return JSON.parse(document.getElementById('ts-data').textContent).chains")
    for where, line in (("7 @ 13", "13"), ("11", "11")):
        ops = [e for e in browser.find_elements(By.CSS_SELECTOR, '.pane[data-stage="ttgir"] .body > div.op')
               if e.get_attribute("data-s") == line
               and (len(chains[int(e.get_attribute("data-c"))]) > 1) == ("@" in where)]
        assert ops, f"no ttgir op of {where}"
        click(browser, ops[0])
        lines = browser.execute_script(
            "var b = document.querySelector('.pane.src .body[data-file=\"' + arguments[0] + '\"]'), out = [];"
            "for (var i = 0; i < b.children.length; i++) { var c = b.children[i].classList;"
            " if (c.contains('sel') || c.contains('chn')) out.push(i + 1); } return out;", index)
        assert lines == ([7] if "@" in where else []), (where, lines)
    assert console_errors(browser) == []


TWO_CALLS = '''import triton
import triton.language as tl


@triton.jit
def ld(p, offs):
    return tl.load(p + offs)


@triton.jit
def two_calls(x_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 128)
    a = ld(x_ptr, offs)
    b = ld(y_ptr, offs)
    tl.store(out_ptr + offs, a + b)
'''


def test_a_loads_row_of_a_helper_selects_its_call_only(browser, tmp_path):
    """Helper 54: a helper's load, called on lines 13 and 14, is two rows (7:12 @ 13:9, 7:12 @ 14:9); a click
    on either selected the helper's line 7, so every op of both calls lit up. Each selects its call's ops:
    what `map --line` counts on that call's line."""
    import json

    from selenium.webdriver.common.by import By

    (tmp_path / "two.py").write_text(TWO_CALLS)
    r = run_cli("compile", f"{tmp_path / 'two.py'}::two_calls", "--target", "cuda:90", "--signature",
                "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    expected = {}
    for line in (13, 14):
        doc = json.loads(run_cli("map", "two_calls", "--cache-dir", str(tmp_path / "c"), "--line", str(line),
                                 "--stages", "ttgir,llir,ptx", "--json").stdout)
        expected[line] = {s["stage"]: s["count"] for s in doc["stages"] if s["count"]}
    assert expected[13] and expected[14]
    page = write_report(tmp_path, "two-calls", "two_calls", "--cache-dir", str(tmp_path / "c"))
    open_page(browser, page)
    browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="loads"]').click()
    rows = [r for r in browser.find_elements(By.CSS_SELECTOR, "table.loads tr[data-s]")
            if r.get_attribute("title").startswith("two.py:7:")]
    assert [r.get_attribute("title") for r in rows] == ["two.py:7:12 @ two.py:13:9", "two.py:7:12 @ two.py:14:9"]
    for row, line in zip(rows, (13, 14), strict=True):
        click(browser, row)
        assert marked(browser, "hl") == expected[line], line
        assert marked_lines(browser, "python", "sel") == [line]
    assert console_errors(browser) == []
