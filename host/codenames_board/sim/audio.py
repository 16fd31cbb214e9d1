"""The buzzer through the sound card: the same tones the piezo plays, silent when there is no device."""

from __future__ import annotations

import array
import logging
import os
import sys
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22050
VOLUME = 3000  # of 32767: a buzzer, not a fanfare


class MixerBuzzer:
    """``play(hz)`` / ``stop()`` like the Pi's buzzer, with square waves on pygame's mixer."""

    def __init__(self) -> None:
        import pygame

        self.pygame = pygame
        pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        self._sounds: dict[int, object] = {}
        self._channel = None

    @classmethod
    def open(cls) -> MixerBuzzer | None:
        """A buzzer on the default sound device, or None (and a log line) when there is none."""
        if not sound_device_likely():
            log.info("no sound device: the simulator is silent")
            return None
        import pygame

        if not pygame.mixer:  # SDL_mixer or a library it needs would not load: pygame left a stand-in
            log.info("no sound (pygame's mixer: %s): the simulator is silent", pygame.mixer.reason)
            return None
        try:
            return cls()
        except Exception as error:  # noqa: BLE001 - pygame.error, or no audio driver at all
            log.info("no sound device (%s): the simulator is silent", error)
            return None

    def _tone(self, hz: float):
        key = round(hz)
        if key not in self._sounds:
            period = max(2, round(RATE / hz))
            wave = array.array("h", [VOLUME] * (period // 2) + [-VOLUME] * (period - period // 2))
            samples = wave * max(1, RATE // 4 // period)  # about a quarter second, looped
            self._sounds[key] = self.pygame.mixer.Sound(buffer=samples.tobytes())
        return self._sounds[key]

    def play(self, hz: float) -> None:
        self.stop()
        self._channel = self._tone(hz).play(loops=-1)

    def stop(self) -> None:
        if self._channel is not None:
            self._channel.stop()
            self._channel = None

    def close(self) -> None:
        self.stop()
        self.pygame.mixer.quit()


def sound_device_likely(environ=os.environ, platform: str = sys.platform) -> bool:
    """Whether opening the mixer is worth trying. On Linux without a sound card or a sound server,
    ALSA would only print its complaints on the terminal before failing."""
    if platform != "linux" or environ.get("SDL_AUDIODRIVER"):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    places = [Path("/dev/snd"), Path(environ.get("PULSE_SERVER", "").removeprefix("unix:") or "/nonexistent")]
    if runtime:
        places += [Path(runtime, "pulse", "native"), Path(runtime, "pipewire-0")]
    return any(place.exists() for place in places)
