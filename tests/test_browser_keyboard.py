"""The pages with the keyboard alone and a screen reader (QA of 2026-12-07, desktop 1280 px, headless Chromium): focus
never falls to the page's start, a used-up tile never traps the arrow keys, what changes is announced, and the
labels follow the language."""

from __future__ import annotations

import pytest

from tests.test_browser import ANSWERED, SEED_STEP_1, WAIT_MS
from tests.test_browser_play import play_to_the_end, review_seat_0

SEED = " ".join(SEED_STEP_1)


@pytest.fixture
def desk(chromium, url):
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(WAIT_MS)
    yield page
    page.close()


def focused(page) -> str:
    return page.evaluate("document.activeElement.dataset.kind || document.activeElement.id || "
                         "document.activeElement.tagName")


def test_a_used_up_tile_passes_focus_on_and_the_arrows_skip_it(desk, url):
    """QA: a tile's last copy dropped focus to the page (and the palette's one tab stop with it); the arrow keys then
    stopped in front of a used-up tile."""
    desk.goto(url)
    first = desk.locator("#palette button.tile").first
    kind = first.get_attribute("data-kind")
    first.focus()
    for _ in range(3):
        desk.keyboard.press("Enter")
    desk.wait_for_selector(f'#palette button[data-kind="{kind}"][disabled]')
    second = desk.locator("#palette button.tile").nth(1).get_attribute("data-kind")
    assert focused(desk) == second
    desk.keyboard.press("ArrowLeft")  # (wraps past the used-up first tile to the last)
    last = desk.locator("#palette button.tile").last.get_attribute("data-kind")
    assert focused(desk) == last
    desk.keyboard.press("Home")
    assert focused(desk) == second
    assert desk.locator("#palette button.tile[tabindex='0']").count() == 1


def test_try_an_example_and_back_keep_a_focus_that_says_something(desk, url):
    """QA: "Try an example" and Back left focus on an empty title, or on the page."""
    desk.goto(url)
    desk.wait_for_selector("#welcome:not([hidden])")
    desk.focus("#example")
    desk.keyboard.press("Enter")
    desk.wait_for_function(ANSWERED)
    assert focused(desk) == "position-title" and "visually-hidden" in desk.get_attribute("#position-title", "class")
    assert desk.evaluate("document.activeElement.textContent") == "The position as entered"
    desk.locator("#discard-table button").first.click()
    desk.wait_for_function("() => document.querySelector('#position-title').textContent.startsWith('The position after')")
    desk.go_back()
    desk.wait_for_function("() => document.querySelector('#position-title').textContent === 'The position as entered'")


def test_labels_follow_the_language(desk, url):
    """QA: after a switch to Japanese the palette, hand tiles and groups kept English names."""
    desk.goto(f"{url}?hand={SEED}")
    desk.wait_for_function(ANSWERED)
    desk.click("#lang-toggle")
    desk.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert desk.get_attribute("#palette", "aria-label").startswith("牌:")
    assert desk.get_attribute("#hand button.tile >> nth=0", "aria-label").endswith(" を外す")
    assert desk.get_attribute('#palette button[data-kind="春香"]', "aria-label") == "春香 を追加"
    desk.click("#call-toggle")  # (a tile of the unit being called: its twin label had stayed English)
    desk.click('#palette button[data-kind="春香"]')
    assert desk.get_attribute("#hand .pending button.tile", "aria-label") == "春香 を鳴きから外す"


def test_the_end_of_a_game_takes_focus(desk, url):
    """QA: at the end of a game focus fell to the page's start, and nothing said the game was over."""
    desk.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    desk.wait_for_selector("#my-hand .tile")
    assert desk.get_attribute("#my-hand", "role") == "group"
    play_to_the_end(desk)
    desk.wait_for_function("() => document.activeElement.id === 'over-title'")


def test_before_a_draw_pass_takes_focus_not_a_fetch(desk, url):
    """QA: the そら prompt put focus on its first fetch, so a reflexive Enter took a tile instead of drawing. The
    prompt is offered here as the engine offers it (fetches, then Pass) to a player acting from the keyboard."""
    desk.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    desk.wait_for_selector("#my-hand .tile")
    desk.evaluate("""() => { refocus = true; offer([
        { type: "sora", actor: 0, target: 0, pai: "春香" }, { type: "sora", actor: 0, target: 1, pai: "千早" },
        { type: "none", actor: 0 }]); }""")
    assert desk.evaluate("document.activeElement.dataset.action") == "none"
    assert desk.inner_text("#prompt").startswith("Before your draw")


def test_a_review_says_its_steps_and_its_result(desk, url):
    """QA: the stepper's moves and the finished grading were silent to a screen reader, and a decision row did not
    say that Enter shows its position."""
    review_seat_0(desk, url)
    assert desk.inner_text("#review-status") == desk.inner_text("#review-summary")
    assert desk.get_attribute("#step-event >> xpath=..", "aria-live") == "polite"
    row = desk.locator("#decisions tr.decision").first
    assert row.get_attribute("aria-description") == "Enter: the position before this decision"
    row.focus()
    desk.keyboard.press("Enter")
    shown = desk.get_attribute("#step", "aria-valuetext")
    assert shown.startswith("event ") and desk.inner_text("#step-event") in shown
    before = desk.input_value("#step")
    desk.keyboard.press("ArrowRight")  # (from a row the arrows do not step: they are the table's)
    assert desk.input_value("#step") == before
    assert desk.evaluate("getComputedStyle(document.querySelector('#decisions td.kind')).whiteSpace") == "nowrap"
