#!/usr/bin/python3
"""Browser tests of the service's page in a real headless Chromium (Selenium + chromedriver).

Usage: page_test.py BINARY [--screenshots DIR]

Each check prints `ok - <behaviour>` or `FAIL - <behaviour>: <why>`; the exit
status is 1 when any check failed, 2 when Chromium or its driver is missing.
Every server runs on 127.0.0.1 and is stopped by PID.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

from http2_tabs import http2_tests
from other_origin import OtherOrigin
from service import Service

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService
    from selenium.webdriver.common.by import By
except ImportError:
    print("FAIL - Selenium for Python is missing: install python3-selenium (apt) and retry.")
    sys.exit(2)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
# Waits poll every 50 ms up to this bound; the whole suite normally takes ~20 s.
WAIT_SECONDS = 15
# Over HTTP/1.1 Chromium opens at most six connections per origin; a feed per tab hung the seventh.
TABS = 20


def browser(width=1200, height=900, extra_flags=()):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--force-device-scale-factor=1", f"--window-size={width},{height}", *extra_flags):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=DriverService(executable_path=CHROMEDRIVER), options=options)


def wait_for(description, condition, seconds=WAIT_SECONDS):
    deadline = time.monotonic() + seconds
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # the page may be mid-update; try again until the deadline
            last_error = error
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds}s waiting for {description}" + (f" ({last_error})" if last_error else ""))


def requested_urls(driver):
    """Every URL the page asked for, from the DevTools network log."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


class Suite:
    def __init__(self, binary, screenshots):
        self.binary = binary
        self.screenshots = screenshots
        self.failures = 0
        self.passes = 0
        self.logs = tempfile.mkdtemp(prefix="browser-tests-")

    def check(self, behaviour, test):
        started = time.monotonic()
        try:
            test()
            self.passes += 1
            print(f"ok - {behaviour} ({time.monotonic() - started:.1f}s)")
        except Exception as error:
            self.failures += 1
            print(f"FAIL - {behaviour}: {error}")
            traceback.print_exc(limit=3, file=sys.stdout)

    def service(self, *flags, port=0, name="service"):
        return Service(self.binary, *flags, port=port, log_path=os.path.join(self.logs, name + ".log")).start()

    # ---- The page itself -------------------------------------------------

    def page_tests(self):
        service = self.service("--demo-latency-ms", "25", name="page")
        driver = browser()
        try:
            driver.get(service.origin + "/")
            self.check("the page connects to /events", lambda: wait_for(
                "the feed status to say connected",
                lambda: "Connected" in driver.find_element(By.ID, "feed-status").text))
            self.check("a /users request appears as marble lanes, one per stage",
                       lambda: self.marble_lanes_appear(driver, service))
            self.check("avatars land in the serial and parallel columns in their orders",
                       lambda: self.avatars_land(driver))
            self.check("the users browser's two runs say which is serial and which parallel",
                       lambda: self.own_runs_are_named(driver))
            self.check("long logins are shown whole, not cut with an ellipsis",
                       lambda: self.logins_are_whole(driver))
            self.check("selecting a user shows the profile from /users/{login}",
                       lambda: self.profile_shows(driver))
            self.check("the kind filter hides marbles and the pipeline filter hides runs",
                       lambda: self.filters_hide(driver))
            self.check("the page requested nothing off 127.0.0.1",
                       lambda: self.only_local_requests(driver, service))
            self.check("the page logged no console error", lambda: self.no_console_errors(driver))
            # After the console check: Chromium logs the 400 it provokes as a failed resource.
            self.check("an out-of-range Since shows the server's problem, not just a failure",
                       lambda: self.problem_shows(driver))
            self.check("after a server restart the page reconnects and shows a reset",
                       lambda: self.restart_shows_reset(driver, service))
        finally:
            driver.quit()
            service.stop()

    def marble_lanes_appear(self, driver, service):
        status, _, _ = service.get("/users?limit=5")
        assert status == 200, f"/users answered {status}"
        run = wait_for("a run of pipeline `users` with its end marble", lambda: [
            r for r in driver.find_elements(By.CSS_SELECTOR, "article.run[data-pipeline=users]")
            if r.find_elements(By.CSS_SELECTOR, ".lane .marble.end")])[0]
        stages = [s.text for s in run.find_elements(By.CSS_SELECTOR, ".lane .stage")]
        for stage in ("users", "list", "avatar"):
            assert stage in stages, f"no lane for stage {stage}: {stages}"
        data = run.find_elements(By.CSS_SELECTOR, ".marble.data")
        assert len(data) >= 5, f"expected at least 5 data marbles, saw {len(data)}"

    def load_users(self, driver, limit):
        field = driver.find_element(By.ID, "users-limit")
        field.clear()
        field.send_keys(str(limit))
        driver.find_element(By.ID, "users-load").click()
        for mode in ("serial", "parallel"):
            wait_for(f"the {mode} column's summary", lambda: "users," in driver.find_element(By.ID, f"{mode}-summary").text)

    def avatars_land(self, driver):
        self.load_users(driver, 8)
        columns = {}
        for mode in ("serial", "parallel"):
            buttons = driver.find_elements(By.CSS_SELECTOR, f"#{mode}-users button.user")
            columns[mode] = [b.get_attribute("data-login") for b in buttons]
            assert len(buttons) == 8, f"{mode}: {len(buttons)} users landed, expected 8"
            for image in driver.find_elements(By.CSS_SELECTOR, f"#{mode}-users img"):
                assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) > 0, \
                    f"{mode}: an avatar did not render"
        assert sorted(columns["serial"]) == sorted(columns["parallel"]), columns
        serial_ids = driver.execute_script(
            "return [...document.querySelectorAll('#serial-users button.user')].map(b => b.dataset.id)")
        assert serial_ids == sorted(serial_ids, key=int), f"serial column out of upstream order: {serial_ids}"

    def own_runs_are_named(self, driver):
        titles = wait_for("both users-stream runs with their end marbles", lambda: (lambda runs: runs if len(runs) >= 2 else None)([
            r.find_element(By.CSS_SELECTOR, "header h3").text
            for r in driver.find_elements(By.CSS_SELECTOR, "article.run[data-pipeline=users-stream]")
            if r.find_elements(By.CSS_SELECTOR, ".lane .marble.end")]))
        latest = titles[:2]  # newest first
        assert sorted(latest) == ["users-stream · parallel (merge)", "users-stream · serial (concatMap)"], titles

    def logins_are_whole(self, driver):
        driver.set_window_size(390, 844)
        try:
            self.load_users(driver, 20)  # katherine15, niklaus18: the longest of the demo's logins
            cut = driver.execute_script("""
                return [...document.querySelectorAll('#serial-users .user .login, #parallel-users .user .login')]
                  .filter(l => l.scrollWidth > l.clientWidth + 1 || l.textContent !== l.closest('button').dataset.login)
                  .map(l => `${l.textContent}: ${l.scrollWidth} px in ${l.clientWidth} px`);""")
            assert driver.execute_script("return document.querySelectorAll('#serial-users .user .login').length") == 20
            assert not cut, f"logins cut: {cut}"
        finally:
            driver.set_window_size(1200, 900)

    def profile_shows(self, driver):
        button = driver.find_element(By.CSS_SELECTOR, "#parallel-users button.user")
        login = button.get_attribute("data-login")
        button.send_keys("\n")  # keyboard activation, as a keyboard user would
        wait_for("the profile card", lambda: login in driver.find_element(By.ID, "profile-body").text
                 and "Repositories" in driver.find_element(By.ID, "profile-body").text)
        assert button.get_attribute("aria-pressed") == "true"

    def problem_shows(self, driver):
        field = driver.find_element(By.ID, "users-since")
        field.clear()
        field.send_keys("99999999999")  # above the API's 2147483647; the form's min=0 lets it through
        driver.find_element(By.ID, "users-load").click()
        for mode in ("serial", "parallel"):
            summary = wait_for(f"the {mode} column's failure", lambda: (lambda e: e if e.get_attribute("data-state") == "failed" else None)(
                driver.find_element(By.ID, f"{mode}-summary")))
            text = summary.text
            assert "400 Invalid query parameter" in text, f"{mode}: {text}"
            assert "Query parameter 'since' must be an integer from 0 to 2147483647, got '99999999999'" in text, f"{mode}: {text}"
        field.clear()
        field.send_keys("0")

    # ---- The marble diagram on a default (fast) server ---------------------

    def marble_tests(self):
        service = self.service(name="marbles")
        driver = browser()
        try:
            driver.get(service.origin + "/")
            wait_for("the feed", lambda: "Connected" in driver.find_element(By.ID, "feed-status").text)
            status, _, _ = service.get("/users?limit=5")
            assert status == 200, f"/users answered {status}"
            run = wait_for("the run of /users with its end marble", lambda: [
                r for r in driver.find_elements(By.CSS_SELECTOR, "article.run[data-pipeline=users]")
                if r.find_elements(By.CSS_SELECTOR, ".lane .marble.end")])[0]
            self.check("a run is labelled with its real duration, not the lanes' minimum span",
                       lambda: self.label_gives_real_duration(driver, run))
            self.check("marbles of one millisecond are spread so that none hides another",
                       lambda: self.marbles_do_not_overlap(driver, run))
        finally:
            driver.quit()
            service.stop()

    def label_gives_real_duration(self, driver, run):
        # The event log's `ms` column is each event's time since the run's first; the last is its length.
        # Read with the label in one script, so no event lands between the two.
        times, label = driver.execute_script("""
            const run = arguments[0];
            return [[...run.querySelectorAll('tbody tr')].map(r => Number(r.children[1].textContent)),
                    run.querySelector('header p').textContent];""", run)
        longest = max(times)
        expected = f"{len(times)} events over {longest} ms" if longest > 0 else f"{len(times)} events within 1 ms"
        assert expected in label, f"label {label!r}, events at {times} ms"

    def marbles_do_not_overlap(self, driver, run):
        lanes = driver.execute_script("""
            return [...arguments[0].querySelectorAll('.track')].map(track =>
              [...track.querySelectorAll('.marble')].map(m => {
                const r = m.getBoundingClientRect();
                return { kind: m.dataset.kind, t: Number(m.dataset.t), left: r.left, right: r.right };
              }));""", run)
        coincident = sum(1 for lane in lanes for a, b in zip(lane, lane[1:]) if a["t"] == b["t"])
        assert coincident > 0, "no two marbles of one lane share a millisecond: the run shows nothing to spread"
        for lane in lanes:
            ordered = sorted(lane, key=lambda m: m["left"])
            for a, b in zip(ordered, ordered[1:]):
                assert b["left"] >= a["right"] - 0.5, f"{a} and {b} overlap"

    # ---- Many tabs over HTTP/1.1 ------------------------------------------

    def many_tabs_tests(self):
        service = self.service(name="tabs")
        driver = browser()
        try:
            self.check(f"{TABS} tabs of the page all show live lanes over HTTP/1.1, sharing one /events",
                       lambda: self.tabs_show_lanes(driver, service, TABS))
            self.check("a fetch from a tab answers while they are open",
                       lambda: self.fetch_answers(driver))
            self.check("closing the first tab leaves the others live",
                       lambda: self.first_tab_closes(driver, service))
        finally:
            driver.quit()
        driver = browser()
        try:
            self.check("without SharedWorker a tab opens its own feed",
                       lambda: self.own_feed_without_shared_worker(driver, service))
        finally:
            driver.quit()
            service.stop()

    def tabs_show_lanes(self, driver, service, count):
        driver.set_page_load_timeout(WAIT_SECONDS)
        for index in range(count):
            if index > 0:
                driver.switch_to.new_window("tab")
            driver.get(service.origin + "/")
            wait_for(f"tab {index + 1} to connect",
                     lambda: "Connected" in driver.find_element(By.ID, "feed-status").text)
        self.lanes_in_every_tab(driver, service)

    def lanes_in_every_tab(self, driver, service):
        request_id = f"tabs-{time.monotonic_ns()}"
        status, _, _ = service.get("/users?limit=3", headers={"X-Request-ID": request_id})
        assert status == 200, f"/users answered {status}"
        for handle in driver.window_handles:
            driver.switch_to.window(handle)
            wait_for(f"the run of {request_id} in tab {handle}", lambda: driver.find_elements(
                By.CSS_SELECTOR, f"article.run[data-request-id='{request_id}'] .lane .marble.end"))

    def fetch_answers(self, driver):
        result = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const timeout = new AbortController();
            setTimeout(() => timeout.abort(), 5000);
            fetch('/users?limit=1', { signal: timeout.signal, cache: 'no-store' })
              .then(r => r.json().then(users => done({ status: r.status, users: users.length })))
              .catch(e => done({ error: String(e) }));""")
        assert result == {"status": 200, "users": 1}, f"fetch('/users') from a tab: {result}"

    def own_feed_without_shared_worker(self, driver, service):
        # As in a browser without SharedWorker: the page falls back to an EventSource of its own.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker;"})
        driver.get(service.origin + "/")
        assert driver.execute_script("return typeof SharedWorker") == "undefined"
        wait_for("the tab's own feed to connect", lambda: "Connected" in driver.find_element(By.ID, "feed-status").text)
        urls = requested_urls(driver)
        assert any(u.startswith(service.origin + "/events") for u in urls), "the tab did not request /events itself"
        self.lanes_in_every_tab(driver, service)

    def first_tab_closes(self, driver, service):
        driver.switch_to.window(driver.window_handles[0])
        driver.close()
        driver.switch_to.window(driver.window_handles[0])
        self.lanes_in_every_tab(driver, service)

    def filters_hide(self, driver):
        visible = lambda selector: [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]
        assert visible(".marble.data"), "no data marble to hide"
        driver.find_element(By.CSS_SELECTOR, "input[name=kind][value=data]").click()
        assert not visible(".marble.data"), "data marbles still shown with `data` unticked"
        driver.find_element(By.CSS_SELECTOR, "input[name=kind][value=data]").click()
        assert visible(".marble.data")
        select = driver.find_element(By.ID, "filter-pipeline")
        driver.execute_script("arguments[0].value = 'profile'; arguments[0].dispatchEvent(new Event('change'))", select)
        pipelines = {r.get_attribute("data-pipeline") for r in visible("article.run")}
        assert pipelines == {"profile"}, f"runs shown with pipeline=profile: {pipelines}"
        driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('change'))", select)

    def only_local_requests(self, driver, service):
        urls = requested_urls(driver)
        # /events itself is requested by the shared worker, whose requests are not in the tab's log.
        assert any(u.startswith(service.origin + "/page-feed.js") for u in urls), "the log shows no /page-feed.js request"
        foreign = [u for u in urls if not (u.startswith("http://127.0.0.1:") or u.startswith("data:"))]
        assert not foreign, f"requests off 127.0.0.1: {foreign}"

    def no_console_errors(self, driver):
        errors = console_errors(driver)
        assert not errors, f"console errors: {errors}"

    def screenshot_run(self):
        """The README's pictures: a flaky, slow demo upstream, so retries and errors show."""
        service = self.service("--demo-latency-ms", "40", "--demo-failure-rate", "0.2", name="screenshots")
        driver = browser()
        try:
            driver.get(service.origin + "/")
            wait_for("the feed", lambda: "Connected" in driver.find_element(By.ID, "feed-status").text)
            service.get("/users/ada1")
            try:
                service.get("/users?limit=6&onAvatarError=placeholder")
            except Exception:
                pass  # a failed run draws an × too
            self.load_users(driver, 12)
            driver.find_element(By.CSS_SELECTOR, "#parallel-users button.user").click()
            wait_for("the profile card", lambda: "Repositories" in driver.find_element(By.ID, "profile-body").text
                     or "×" in driver.find_element(By.ID, "profile-body").text)
            self.take_screenshots(driver)
        finally:
            driver.quit()
            service.stop()

    def take_screenshots(self, driver):
        os.makedirs(self.screenshots, exist_ok=True)
        driver.set_window_size(1200, 1000)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(self.screenshots, "page-marbles.png"))
        driver.execute_script("document.getElementById('users').scrollIntoView()")
        driver.save_screenshot(os.path.join(self.screenshots, "page-users.png"))
        driver.set_window_size(390, 844)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(self.screenshots, "page-phone.png"))
        driver.set_window_size(1200, 900)

    def restart_shows_reset(self, driver, service):
        port = service.port
        service.stop()
        wait_for("the page to notice the lost connection",
                 lambda: "reconnecting" == driver.find_element(By.ID, "feed-status").get_attribute("data-state"))
        restarted = self.service(port=port, name="page-restarted")
        service.process, service.log = restarted.process, restarted.log
        wait_for("the reset notice", lambda: driver.find_element(By.ID, "feed-notice").is_displayed(), seconds=20)
        notice = driver.find_element(By.ID, "feed-notice").text
        assert "Reset" in notice, notice
        # The status above the notice must not claim the resume the reset refused.
        status = wait_for("the status to say it could not resume", lambda: (lambda text: text if "could not resume after event" in text else None)(
            driver.find_element(By.ID, "feed-status").text))
        assert "resumed after" not in status, status

    # ---- Pages on other origins ------------------------------------------

    def cross_origin_tests(self):
        allowed, refused = OtherOrigin(), OtherOrigin()
        service = self.service("--cors-origins", allowed.origin, name="cors")
        driver = browser()
        try:
            self.check("a page from an origin in --cors-origins reads the feed and the JSON",
                       lambda: self.allowed_origin_works(driver, allowed, service))
            self.check("a page from an origin not in the list is refused by the browser",
                       lambda: self.other_origin_is_refused(driver, refused, service))
        finally:
            driver.quit()
            service.stop()
            allowed.stop()
            refused.stop()

    def results(self, driver):
        return driver.execute_script("return window.results")

    def allowed_origin_works(self, driver, page, service):
        driver.get(f"{page.origin}/?api={service.origin}")
        wait_for("the fetch result", lambda: (self.results(driver) or {}).get("fetch"))
        results = self.results(driver)
        assert results.get("open"), f"the EventSource did not open: {results}"
        fetched = results["fetch"]
        assert fetched.get("status") == 200 and fetched.get("users") == 2, f"fetch: {fetched}"
        assert fetched.get("etag"), f"the exposed ETag is not readable: {fetched}"
        wait_for("pipeline events over the cross-origin EventSource", lambda: self.results(driver)["events"] > 0)
        errors = console_errors(driver)
        assert not errors, f"console errors: {errors}"

    def other_origin_is_refused(self, driver, page, service):
        driver.get_log("browser")  # forget the previous page's messages
        driver.get(f"{page.origin}/?api={service.origin}")
        wait_for("the fetch result", lambda: (self.results(driver) or {}).get("fetch"))
        results = self.results(driver)
        assert "error" in results["fetch"], f"the fetch was not refused: {results}"
        wait_for("the EventSource to close", lambda: self.results(driver).get("feedState") == 2)
        assert results["events"] == 0, results
        blocked = [e["message"] for e in console_errors(driver) if "CORS policy" in e["message"]]
        assert blocked, "the browser logged no CORS refusal"

    def run(self):
        missing = [name for name, path in (("chromium", CHROMIUM), ("chromedriver (chromium-driver)", CHROMEDRIVER)) if not path]
        if missing:
            print(f"FAIL - browser tests need {' and '.join(missing)}: install Debian's chromium and chromium-driver.")
            return 2
        started = time.monotonic()
        self.page_tests()
        self.marble_tests()
        self.many_tabs_tests()
        self.cross_origin_tests()
        http2_tests(self, browser, wait_for, By)
        if self.screenshots:
            self.check("screenshots are written to " + self.screenshots, self.screenshot_run)
        print(f"browser tests took {time.monotonic() - started:.1f}s; logs in {self.logs}")
        # The plain closing line a CI reader counts: 'N passed, N failed'.
        print(f"browser: {self.passes} passed, {self.failures} failed")
        return 1 if self.failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--screenshots")
    arguments = parser.parse_args()
    sys.exit(Suite(os.path.abspath(arguments.binary), arguments.screenshots).run())


if __name__ == "__main__":
    main()
