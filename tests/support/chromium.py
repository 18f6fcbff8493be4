"""Headless Debian Chromium driven through chromedriver (selenium), for tests that look at pages as a person does.

The flags keep Chromium off the network it cannot reach here (background updates, sync, QUIC) and let it
run as root in a container (`--no-sandbox`, `--disable-dev-shm-usage`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,860")


def chromium_paths() -> tuple[str, str] | None:
    """(browser, driver) executables, or None where Debian's chromium and chromium-driver are missing."""
    browser = os.environ.get("STRATA_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("STRATA_CHROMEDRIVER") or shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def start_chromium(browser: str, driver: str, profile: Path):  # -> selenium WebDriver
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(driver), options=options)
