"""HTTP/2 in the browser: 20 tabs of the page over TLS share one connection, and the page still answers.

Over HTTP/1.1 a browser holds six connections per origin, so a seventh tab's /events would wait
for ever; over h2 every tab's EventSource is a stream of one connection.
"""
import os
import re
import shutil
import subprocess
import tempfile

TABS = 20


def self_signed_certificate(directory):
    key, cert = os.path.join(directory, "key.pem"), os.path.join(directory, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def http2_tests(suite, browser, wait_for, by):
    directory = tempfile.mkdtemp(prefix="h2-browser-")
    cert, key = self_signed_certificate(directory)
    service = suite.service("--tls-cert", cert, "--tls-key", key, "--demo-latency-ms", "5", name="http2")
    origin = f"https://127.0.0.1:{service.port}"
    driver = browser(extra_flags=("--ignore-certificate-errors",))
    try:
        handles = []
        for index in range(TABS):
            if index:
                driver.switch_to.new_window("tab")
            driver.get(origin + "/")
            handles.append(driver.current_window_handle)

        def all_connected():
            for handle in handles:
                driver.switch_to.window(handle)
                wait_for("the feed status to say connected", lambda: "Connected" in driver.find_element(by.ID, "feed-status").text)
        suite.check(f"{TABS} tabs of / over TLS all connect to /events", all_connected)

        def users_answered():
            driver.switch_to.window(handles[-1])
            result = driver.execute_async_script(
                "const done = arguments[0];"
                "fetch('/users?limit=5').then(r => r.json().then(b => done({status: r.status, count: b.length})))"
                ".catch(e => done({error: String(e)}));")
            assert result.get("status") == 200 and result.get("count") == 5, result
        suite.check("a fetch('/users') is answered while they are open", users_answered)

        def lanes_everywhere():
            for handle in handles:
                driver.switch_to.window(handle)
                wait_for("a live run of pipeline `users` with its end marble", lambda: [
                    r for r in driver.find_elements(by.CSS_SELECTOR, "article.run[data-pipeline=users]")
                    if r.find_elements(by.CSS_SELECTOR, ".lane .marble.end")])
        suite.check(f"every one of the {TABS} tabs shows the request's marble lanes", lanes_everywhere)

        def one_h2_connection():
            driver.switch_to.window(handles[0])
            protocol = driver.execute_script(
                "return performance.getEntriesByType('navigation')[0].nextHopProtocol")
            assert protocol == "h2", f"the page came over {protocol}"
            text = driver.execute_async_script(
                "const done = arguments[0]; fetch('/metrics').then(r => r.text()).then(done).catch(e => done(String(e)));")
            h2 = re.search(r'http_protocol_connections_open\{protocol="h2"\} (\d+)', text)
            assert h2 and int(h2.group(1)) == 1, f"h2 connections: {h2.group(0) if h2 else text[:300]}"
        suite.check("the page is served over h2, every tab on one connection", one_h2_connection)
    finally:
        driver.quit()
        service.stop()
        shutil.rmtree(directory, ignore_errors=True)
