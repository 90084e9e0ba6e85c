"""The pages run under the Content-Security-Policy, and the browser tests would see if not."""

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def test_pages_come_with_the_policy_and_an_inline_script_is_refused(
    page: Page, csp_violations: list[str]
) -> None:
    response = page.goto("/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    assert not csp_violations  # the home page itself, its QR code included, breaks nothing

    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        ran = page.evaluate(
            """() => {
                window.inlineRan = false;
                const script = document.createElement("script");
                script.textContent = "window.inlineRan = true";
                document.head.append(script);
                return window.inlineRan;
            }"""
        )

    assert ran is False  # refused: no inline script runs
    assert any("script-src" in message for message in csp_violations), csp_violations
    csp_violations.clear()  # seen on purpose: not a failure of this test


def test_an_inline_style_attribute_is_refused_and_reported(
    page: Page, csp_violations: list[str]
) -> None:
    page.goto("/partidas/nueva")

    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        colour = page.evaluate(
            """() => {
                const probe = document.createElement("p");
                probe.setAttribute("style", "color: rgb(1, 2, 3)");
                document.body.append(probe);
                return getComputedStyle(probe).color;
            }"""
        )

    assert colour != "rgb(1, 2, 3)"
    assert csp_violations
    csp_violations.clear()
