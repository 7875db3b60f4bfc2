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


def ready(p) -> None:
    """Wait until the page's scripts have set it up (``body[data-ready]``): a tap or a typed time before that
    lands on a control nobody listens to yet (a cold server answers the page's first requests slowly)."""
    p.wait_for_selector("body[data-ready]", state="attached", timeout=30_000)


def joined_phone(browser, errors: list, url: str, path: str, failed: list | None = None):
    """A phone that opened a join link and landed, ready, on the page ``path`` ends with."""
    ctx, p = phone(browser, errors, failed)
    p.goto(url)
    p.wait_for_url(re.compile(re.escape(path) + "$"))
    ready(p)
    return ctx, p


def page_width(p) -> int:
    """The width of the page's content in CSS pixels (more than the viewport: it scrolls sideways)."""
    return p.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def unfold(p, section: str) -> None:
    """Open the folded section ``section`` (a ``<details>`` id) of a page, as a player taps its title."""
    box = p.locator(f"details#{section}")
    if not box.evaluate("d => d.open"):
        box.locator("> summary").click()


def reach(p, form: str) -> None:
    """Make the group page's form ``form`` (``position-form``, ``roll-form``) tappable: it is on the first screen
    when it is the action the group most likely needs, else in its folded section, which this opens. Waits until
    the page has placed its action (its first state has come); a form the players touch stays where it is."""
    p.wait_for_selector("#action[data-action]", state="attached")
    # in one step: the page may move the form between the action and its section at any moment
    p.evaluate("""(form) => {
      const home = document.getElementById(form).closest("details");
      if (home && !home.open) home.querySelector(":scope > summary").click();
    }""", form)


def tell_position(p, at: str | None = None, time: str | None = None, *, trip: str | None = None,
                  since: str | None = None) -> None:
    """Set the group's position on its page as the players type it: the station (and the train, the time it has
    stood there since), the time, then "Set position"."""
    reach(p, "position-form")
    for field, value in (("#at", at), ("#trip", trip), ("#since", since)):
        if value is not None:
            p.fill(field, value)
    if time is not None:
        p.fill("#time", time)
    p.click("#position-form button[type=submit]")


def roll(p, *dice: str) -> None:
    """Roll on the group's page: one die, or white and coloured."""
    reach(p, "roll-form")
    if len(dice) == 1:
        p.select_option("#die", dice[0])
    else:
        p.select_option("#die-white", dice[0])
        p.select_option("#die-colour", dice[1])
    p.click("#roll-button")


_SPLIT_WORDS = """(selector) => {
  const out = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/[^\\s\\u2013\\/-]+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""

_CUT_LABELS = """() => {
  const map = document.querySelector("#map").getBoundingClientRect();
  return [...document.querySelectorAll("#map .leaflet-tooltip")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.left < map.left - 1 || r.right > map.right + 1 || r.top < map.top - 1 || r.bottom > map.bottom + 1;
  }).map((el) => el.textContent);
}"""


def split_words(p, selector: str) -> list[str]:
    """The words of the elements ``selector`` that the browser broke across two lines (a word is broken only at
    a space, a dash or a slash)."""
    return p.evaluate(_SPLIT_WORDS, selector)


def cut_labels(p) -> list[str]:
    """The labels on the page's map that reach beyond it (a name not shown whole)."""
    return p.evaluate(_CUT_LABELS)
