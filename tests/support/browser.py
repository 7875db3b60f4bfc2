"""Playwright in Debian's headless chromium (the system browser; nothing downloaded), phone-sized: shared by the
browser tests of the phone app (the ``browser`` fixture is in conftest.py)."""

from __future__ import annotations

import re

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def phone(browser, errors: list, failed: list | None = None):
    """A new phone (browser context): console errors, page errors and dialogs go to ``errors``; answers of 400
    and more (method, status, path) to ``failed``."""
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append("dialog: " + d.message), d.dismiss()))
    if failed is not None:
        page.on("response", lambda r: r.status >= 400 and failed.append(
            (r.request.method, r.status, re.sub(r"^https?://[^/]+", "", r.url))))
    return ctx, page


def joined_phone(browser, errors: list, url: str, path: str, failed: list | None = None):
    """A phone that opened a join link and landed on the page ``path`` ends with."""
    ctx, p = phone(browser, errors, failed)
    p.goto(url)
    p.wait_for_url(re.compile(re.escape(path) + "$"))
    return ctx, p


def page_width(p) -> int:
    """The width of the page's content in CSS pixels (more than the viewport: it scrolls sideways)."""
    return p.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
