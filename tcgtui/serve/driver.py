"""Textual's web driver, ending the app when its input ends: textual-serve closes a participant's
stdin when the browser's connection goes (a tab closed, the server stopped), and the stock driver
would leave the app running with no one to see it.  The game is saved after every move, so ending
here loses nothing."""

from __future__ import annotations

import asyncio

from textual import messages
from textual.drivers.web_driver import WebDriver

DRIVER = "tcgtui.serve.driver:StudyWebDriver"      # for TEXTUAL_DRIVER


class StudyWebDriver(WebDriver):
    def start_application_mode(self) -> None:
        self._loop = asyncio.get_running_loop()
        super().start_application_mode()

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():            # the input ended, not the app: end the app
            asyncio.run_coroutine_threadsafe(self._app._post_message(messages.ExitApp()), loop=self._loop)
