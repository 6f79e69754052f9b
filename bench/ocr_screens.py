#!/usr/bin/env python3
"""Phone screens for the OCR benchmark (bench/run.sh ocr; docs/performance.md, "Text
recognition"), drawn by a real headless Chromium: mixed sizes and densities, fonts, light and
dark themes; an app bar (a third of them a gradient), list rows with secondary lines and
dividers, an outlined card, chips, a switch, filled, outlined and text buttons; text at 14 to
24 sp of the screen's density. Each screen is written as NAME.png beside
NAME.json, the labels drawn on it and the box each one occupies in screen pixels (a button's
own box, else the text's), as Chromium laid them out. Seeded: the same screens every run.

Usage: bench/ocr_screens.py DIR [COUNT]
"""
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile

CHROMIUM = "/usr/bin/chromium"
# (width, height, density): a small xhdpi phone, two 420-dpi phones, a 560-dpi one.
SIZES = [(720, 1280, 2.0), (1080, 1920, 2.625), (1080, 2400, 2.625), (1440, 3120, 3.5)]
FONTS = ["Roboto", "DejaVu Sans", "Liberation Sans", "Noto Sans", "Liberation Serif"]
THEMES = {
    "light": {"background": "#fafafa", "text": "#202124", "secondary": "#5f6368",
              "primary": "#1a73e8", "on_primary": "#ffffff", "bar": "#1a73e8",
              "on_bar": "#ffffff", "divider": "#dadce0", "card": "#ffffff",
              "gradient_end": "#7b1fa2"},
    "dark": {"background": "#121212", "text": "#e8eaed", "secondary": "#9aa0a6",
             "primary": "#8ab4f8", "on_primary": "#202124", "bar": "#1f1f1f",
             "on_bar": "#e8eaed", "divider": "#3c4043", "card": "#1e1e1e",
             "gradient_end": "#4a148c"},
}
LABELS = """Settings|Network and internet|Connected devices|Apps|Notifications|Battery|Storage
|Sound and vibration|Display|Wallpaper|Accessibility|Security|Privacy|Location|Accounts
|System|About phone|Search settings|Sign in|Create account|Forgot password|Continue
|Cancel|Save changes|Delete|Share|Open in browser|Add to cart|Buy now|Checkout|Your basket
|Order history|Track parcel|Free delivery|Payment methods|Gift cards|Help centre
|Contact us|Log out|Edit profile|Change photo|Dark theme|Font size|Language|Date and time
|Backup|Restore|Check for updates|Install now|Remind me later|Not now|Allow|Deny
|Only this time|While using the app|Turn on|Turn off|Learn more|Got it|Skip|Next|Back
|Done|Retry|Send message|New chat|Archived|Starred|Unread|Mark as read|Mute|Block
|Report spam|Invite friends|Scan code|Pay with card|Top up|Transfer money|Recent
|Favourites|Downloads|Photos|Videos|Music|Podcasts|Library|Home|Explore|Profile
|Subscriptions|Upgrade plan|Monthly|Yearly|Start free trial|Restore purchases
|Terms of service|Privacy policy|Version 4.2.1|Battery 85%|12 unread messages
|2 GB of 15 GB used|Updated 5 min ago|Order 48213|Total 23.50 EUR|Wi-Fi|Bluetooth
|Airplane mode|Hotspot|Do not disturb|Screen timeout|Auto rotate|Brightness
|Ringtone|Alarms|Calendar|Reminders|Weather|Maps|Directions|Start navigation
|Avoid tolls|Saved places|Nearby|Restaurants|Book a table|Reviews|Opening hours
|Call now|Website|Copy link|Print|Export|Import|Rename|Move to folder|Details""".replace(
    "\n", "").split("|")


def words(label):
    return label.casefold().split()


def contains_run(outer, inner):
    """Whether inner's words are a run of outer's (find_phrase Equals would find it there)."""
    a, b = words(outer), words(inner)
    return any(a[i:i + len(b)] == b for i in range(len(a) - len(b) + 1))


def pick_labels(rng, count):
    chosen = []
    while len(chosen) < count:
        label = rng.choice(LABELS)
        if any(contains_run(other, label) or contains_run(label, other) for other in chosen):
            continue
        chosen.append(label)
    return chosen


class Labels:
    """The screen's labels, handed out in order."""

    def __init__(self, labels):
        self.labels = labels
        self.used = 0

    def __next__(self):
        self.used += 1
        return self.labels[self.used - 1]


def screen_html(rng, width, height, density, font, theme):
    colours = THEMES[theme]
    dp = lambda value: round(value * density)  # noqa: E731
    sp = lambda: rng.choice([14, 16, 18, 20, 22, 24]) * density  # noqa: E731
    labels = Labels(pick_labels(rng, 16))
    parts = []

    def text(label, x, y, size, colour, weight=400):
        parts.append(
            f'<span data-label="{html.escape(label)}" style="position:absolute;left:{x}px;'
            f'top:{y}px;font-size:{size:.1f}px;color:{colour};font-weight:{weight};'
            f'white-space:nowrap">{html.escape(label)}</span>')

    def button(label, style):
        size = rng.choice([14, 16]) * density
        common = (f"height:{dp(48)}px;"
                  f"padding:0 {dp(20)}px;font:500 {size:.1f}px '{font}';"
                  f"border-radius:{dp(rng.choice([4, 20]))}px;white-space:nowrap;")
        looks = {
            "filled": f"background:{colours['primary']};color:{colours['on_primary']};border:0",
            "outlined": f"background:transparent;color:{colours['primary']};"
                        f"border:{dp(1)}px solid {colours['divider']}",
            "text": f"background:transparent;color:{colours['primary']};border:0",
        }
        parts.append(f'<button data-label="{html.escape(label)}" style="{common}{looks[style]}">'
                     f"{html.escape(label)}</button>")

    # Status bar and app bar, the title on it; a third of the bars a diagonal gradient.
    bar = dp(24) + dp(56)
    bar_fill = colours["bar"]
    if rng.random() < 1 / 3:
        bar_fill = f"linear-gradient(135deg,{colours['bar']},{colours['gradient_end']})"
    parts.append(f'<div style="position:absolute;left:0;top:0;width:{width}px;height:{dp(24)}px;'
                 f'background:#000"></div>')
    parts.append(f'<div style="position:absolute;left:0;top:{dp(24)}px;width:{width}px;'
                 f'height:{dp(56)}px;background:{bar_fill}"></div>')
    text(next(labels), dp(16), dp(24) + dp(14), 22 * density * rng.choice([0.9, 1.0]),
         colours["on_bar"], 500)
    # List rows: a primary line, a secondary one, a divider under each; fewer on a short screen.
    y = bar + dp(8)
    for row in range(4 if height / density > 700 else 3):
        text(next(labels), dp(16), y + dp(10), sp(), colours["text"])
        text(next(labels), dp(16), y + dp(44), 14 * density, colours["secondary"])
        y += dp(76)
        parts.append(f'<div style="position:absolute;left:{dp(16)}px;top:{y}px;'
                     f'width:{width - dp(16)}px;height:{max(1, dp(1))}px;'
                     f'background:{colours["divider"]}"></div>')
    # A card outlined close around its text (a node's outline in the virtual device's style).
    y += dp(16)
    parts.append(f'<div style="position:absolute;left:{dp(16)}px;top:{y}px;'
                 f'width:{width - dp(32)}px;height:{dp(64)}px;background:{colours["card"]};'
                 f'border:{dp(1)}px solid {colours["divider"]};border-radius:{dp(8)}px"></div>')
    text(next(labels), dp(32), y + dp(18), sp(), colours["text"])
    # Two chips close together.
    y += dp(64) + dp(16)
    for index in range(2):
        label = html.escape(next(labels))
        parts.append(
            f'<button data-label="{label}" style="position:absolute;'
            f'left:{dp(16) + index * width // 2}px;top:{y}px;height:{dp(32)}px;'
            f'padding:0 {dp(12)}px;font:400 {14 * density:.1f}px \'{font}\';'
            f'border-radius:{dp(16)}px;white-space:nowrap;background:transparent;'
            f'color:{colours["text"]};border:{dp(1)}px solid {colours["divider"]}">'
            f'{label}</button>')
    # A setting with its switch beside it.
    y += dp(48)
    text(next(labels), dp(16), y + dp(12), 16 * density, colours["text"])
    parts.append(f'<div style="position:absolute;left:{width - dp(16) - dp(36)}px;'
                 f'top:{y + dp(17)}px;width:{dp(36)}px;height:{dp(14)}px;'
                 f'border-radius:{dp(7)}px;background:{colours["primary"]};opacity:0.5"></div>')
    parts.append(f'<div style="position:absolute;left:{width - dp(16) - dp(20)}px;'
                 f'top:{y + dp(14)}px;width:{dp(20)}px;height:{dp(20)}px;border-radius:50%;'
                 f'background:{colours["primary"]}"></div>')
    # Two buttons side by side (one above the other when too wide), low on the screen but
    # below the rest on a short one.
    y = max(y + dp(56) + dp(16), height - dp(48) - dp(150))
    styles = ["filled", "outlined", "text"]
    rng.shuffle(styles)
    parts.append(f'<div style="position:absolute;left:{dp(16)}px;top:{y}px;'
                 f'width:{width - dp(32)}px;display:flex;flex-wrap:wrap;gap:{dp(16)}px">')
    button(next(labels), styles[0])
    button(next(labels), styles[1])
    parts.append("</div>")
    body = "\n".join(parts)
    return f"""<!doctype html><html><head><title>-</title></head>
<body style="margin:0;background:{colours['background']};font-family:'{font}'">
{body}
<script>
document.title = JSON.stringify([...document.querySelectorAll('[data-label]')].map(e => {{
  const r = e.getBoundingClientRect();
  return {{label: e.dataset.label, kind: e.tagName === 'BUTTON' ? 'button' : 'text',
          box: [Math.floor(r.left), Math.floor(r.top), Math.ceil(r.right), Math.ceil(r.bottom)]}};
}}));
</script></body></html>"""


def draw(page, width, height, png, profile):
    dom = subprocess.run(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--force-device-scale-factor=1", f"--user-data-dir={profile}",
         f"--window-size={width},{height}", f"--screenshot={png}", "--dump-dom",
         f"file://{page}"], capture_output=True, text=True, timeout=120, check=True).stdout
    return json.loads(html.unescape(re.search(r"<title>(.*?)</title>", dom, re.S).group(1)))


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    os.makedirs(out, exist_ok=True)
    rng = random.Random(51)
    with tempfile.TemporaryDirectory(prefix="ocr-screens") as scratch:
        for index in range(count):
            width, height, density = SIZES[index % len(SIZES)]
            variant = index // len(SIZES)
            font = FONTS[variant % len(FONTS)]
            theme = ["light", "dark"][variant % 2]
            name = f"{index:02d}-{width}x{height}-{font.replace(' ', '')}-{theme}"
            page = os.path.join(scratch, "page.html")
            with open(page, "w") as file:
                file.write(screen_html(rng, width, height, density, font, theme))
            png = os.path.join(out, name + ".png")
            labels = draw(page, width, height, png, os.path.join(scratch, "profile"))
            with open(os.path.join(out, name + ".json"), "w") as file:
                json.dump({"width": width, "height": height, "density": density, "font": font,
                           "theme": theme, "labels": labels}, file, indent=1)
            print(name, file=sys.stderr)


if __name__ == "__main__":
    main()
