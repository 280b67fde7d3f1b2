#!/usr/bin/env python3
"""Draws the demo content of Assets/ (all made by this project, CC0; text in Aileron, CC0, bundled with Pillow).

    pip install pillow numpy && python3 Assets/tools/make-demo-assets.py

The images are committed, so a build does not need this script; it is here so they can be made again.
"""
import math
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "images")
rng = np.random.default_rng(20261129)


def font(size):
    return ImageFont.load_default(size=size)


def floorplan(names=True):
    """A museum floor plan, 4800 x 3000: rooms, walls, labels, a legend and a scale bar. Without `names`, no words
    at all (floorplan-plain.png, the demo's: the kiosk labels its rooms in the visitor's language)."""
    W, H = 4800, 3000
    img = Image.new("RGB", (W, H), "#f3efe6")
    d = ImageDraw.Draw(img)
    for x in range(0, W, 100):
        d.line([(x, 0), (x, H)], fill="#e8e2d4", width=2)
    for y in range(0, H, 100):
        d.line([(0, y), (W, y)], fill="#e8e2d4", width=2)
    rooms = [
        ("Entrance Hall", (300, 1900, 1500, 2700), "#f6d8a8"),
        ("Cafe", (1200, 800, 1900, 1300), "#c9e4c5"),
        ("Gallery A\nPaintings", (1900, 300, 3100, 1300), "#bcd4ec"),
        ("Gallery B\nPhotography", (3100, 300, 4500, 1300), "#d7c7ea"),
        ("Sculpture Hall", (1900, 1500, 3500, 2700), "#f1c6c0"),
        ("Shop", (3500, 1900, 4500, 2700), "#f4e3a1"),
        ("Library", (300, 300, 1200, 1300), "#d9d0c1"),
        ("WC", (3500, 1500, 3900, 1900), "#e3e3e3"),
        ("Lift", (3900, 1500, 4500, 1900), "#e3e3e3"),
        ("Kids' Corner", (300, 1300, 1200, 1900), "#cdebe9"),
    ]
    for name, (x0, y0, x1, y1), colour in rooms:
        d.rectangle([x0, y0, x1, y1], fill=colour, outline="#3b3a36", width=16)
        if not names:
            continue
        f = font(88 if (x1 - x0) > 700 else 64)
        # Rooms with exhibits or the marker in the middle carry their name near the top.
        y = y0 + 160 if name in ("Entrance Hall", "Sculpture Hall") else (y0 + y1) / 2
        d.multiline_text(((x0 + x1) / 2, y), name, font=f, fill="#2b2a27", anchor="mm", align="center")
    # Corridor and doors (gaps in walls).
    d.rectangle([1200, 1300, 1900, 1900], fill="#efe9dc")
    for (x0, y0, x1, y1) in [(1400, 1292, 1600, 1308), (1892, 700, 1908, 900), (2500, 1292, 2700, 1308),
                             (3092, 700, 3108, 900), (1892, 2000, 1908, 2200), (3492, 2200, 3508, 2400),
                             (800, 1892, 1000, 1908), (1192, 1500, 1208, 1700), (800, 1292, 1000, 1308)]:
        d.rectangle([x0, y0, x1, y1], fill="#efe9dc")
    # Exhibits: plinths in the sculpture hall, frames in the galleries.
    for i in range(5):
        for j in range(3):
            cx, cy = 2150 + i * 300, 1750 + j * 330
            d.ellipse([cx - 55, cy - 55, cx + 55, cy + 55], fill="#fffaf2", outline="#7d5c55", width=8)
    for x in range(2000, 3050, 170):
        d.rectangle([x, 330, x + 120, 360], fill="#5d6f86")
        d.rectangle([x, 1240, x + 120, 1270], fill="#5d6f86")
    for x in range(3200, 4450, 170):
        d.rectangle([x, 330, x + 120, 360], fill="#6f5d86")
    # You are here.
    d.ellipse([860, 2240, 1000, 2380], fill="#d94a3d", outline="white", width=10)
    if names:
        d.text((1030, 2310), "You are here", font=font(72), fill="#d94a3d", anchor="lm")
        # Title, legend.
        d.text((300, 150), "Museum of Everyday Things · Ground floor", font=font(110), fill="#2b2a27", anchor="lm")
        d.text((300, 2850), "Tap the Cafe to see today's menu · Pinch or double-tap to zoom", font=font(64),
               fill="#6a665d", anchor="lm")
    # Scale bar, compass.
    d.line([(3900, 2850), (4400, 2850)], fill="#2b2a27", width=12)
    for x in (3900, 4150, 4400):
        d.line([(x, 2820), (x, 2880)], fill="#2b2a27", width=8)
    d.text((4150, 2790), "10 m", font=font(56), fill="#2b2a27", anchor="mm")
    d.polygon([(4600, 2300), (4560, 2420), (4600, 2390), (4640, 2420)], fill="#2b2a27")
    d.text((4600, 2250), "N", font=font(72), fill="#2b2a27", anchor="mm")
    img.save(os.path.join(OUT, "floorplan.png" if names else "floorplan-plain.png"), optimize=True)


def sky(h, w, top, bottom):
    t = np.linspace(0, 1, h)[:, None, None]
    return (np.array(top)[None, None, :] * (1 - t) + np.array(bottom)[None, None, :] * t) * np.ones((1, w, 1))


def painting_sunset(W=2400, H=1600):
    a = sky(H, W, (40, 30, 90), (250, 150, 90))
    yy, xx = np.mgrid[0:H, 0:W]
    sun = np.clip(1 - np.hypot(xx - W * 0.62, yy - H * 0.55) / 170, 0, 1)
    a += sun[..., None] * np.array([255, 220, 150]) * 0.9
    glow = np.exp(-np.hypot(xx - W * 0.62, yy - H * 0.55) / 500)
    a += glow[..., None] * np.array([120, 60, 20])
    sea = yy > H * 0.62
    depth = (yy - H * 0.62) / (H * 0.38)
    waves = 0.5 + 0.5 * np.sin(xx / 23.0 + 9 * np.sin(yy / 37.0) + depth * 40)
    seacol = np.stack([20 + 30 * waves, 40 + 50 * waves, 90 + 60 * waves], axis=-1) * (1 - 0.4 * depth[..., None])
    depth = np.clip(depth, 0, 1)
    reflect = np.exp(-np.abs(xx - W * 0.62) / (60 + 200 * depth)) * waves * sea
    seacol += reflect[..., None] * np.array([250, 180, 110])
    a = np.where(sea[..., None], seacol, a)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def painting_mountains(W=2400, H=1600):
    a = sky(H, W, (170, 200, 225), (235, 225, 210))
    x = np.arange(W)
    layers = [((70, 95, 120), 0.35, 180), ((95, 120, 140), 0.48, 150), ((120, 140, 150), 0.6, 120),
              ((60, 80, 70), 0.74, 90), ((35, 50, 45), 0.86, 60)]
    yy = np.arange(H)[:, None]
    for colour, base, amp in layers:
        ridge = base * H + amp * (np.sin(x / rng.uniform(90, 160) + rng.uniform(0, 6))
                                  + 0.5 * np.sin(x / rng.uniform(30, 60) + rng.uniform(0, 6))
                                  + 0.06 * np.sin(x / rng.uniform(10, 20)))
        mask = yy > ridge[None, :]
        fog = np.clip((yy - ridge[None, :]) / 260, 0, 1)
        col = np.array(colour) * (1 - 0.0 * fog[..., None]) + np.array([230, 230, 225]) * (0.35 * (1 - fog[..., None]))
        a = np.where(mask[..., None], col, a)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.2))


def painting_circles(W=2400, H=1600):
    img = Image.new("RGB", (W, H), "#efe6d2")
    d = ImageDraw.Draw(img)
    palette = ["#e63946", "#f1a208", "#2a9d8f", "#264653", "#8d5a97", "#1d3557", "#f4a261"]
    for _ in range(38):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        r = rng.uniform(40, 320)
        for k in range(int(rng.integers(1, 5))):
            rr = r * (1 - k * 0.22)
            d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=palette[int(rng.integers(len(palette)))])
    for _ in range(14):
        x0, y0 = rng.uniform(0, W), rng.uniform(0, H)
        ang = rng.uniform(0, math.pi)
        L = rng.uniform(300, 1200)
        d.line([(x0, y0), (x0 + L * math.cos(ang), y0 + L * math.sin(ang))], fill="#1b1b1b", width=int(rng.integers(4, 14)))
    return img


def painting_night(W=2400, H=1600):
    a = sky(H, W, (8, 12, 40), (30, 40, 90))
    yy, xx = np.mgrid[0:H, 0:W]
    swirl = 0.5 + 0.5 * np.sin(xx / 90.0 + 3 * np.sin(yy / 120.0 + xx / 300.0))
    a += swirl[..., None] * np.array([20, 30, 60])
    n = 900
    sx, sy = rng.uniform(0, W, n), rng.uniform(0, H * 0.75, n)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for x, y in zip(sx, sy):
        r = rng.uniform(1, 4.5)
        d.ellipse([x - r, y - r, x + r, y + r], fill=(255, 250, int(rng.uniform(200, 255))))
    d.ellipse([1750, 180, 2010, 440], fill="#fff4c8")
    d.ellipse([1820, 150, 2080, 410], fill=tuple(int(v) for v in a[300, 1950]))
    hills = H * 0.8 + 60 * np.sin(np.arange(W) / 200.0)
    for x in range(W):
        d.line([(x, hills[x]), (x, H)], fill="#0b0f1c")
    for x in range(200, W, 380):
        h = rng.uniform(80, 160)
        y = hills[x]
        d.rectangle([x, y - h, x + 120, y], fill="#0b0f1c")
        d.rectangle([x + 40, y - h + 30, x + 70, y - h + 60], fill="#f6c85f")
    return img


def menu():
    """A long café menu, 1920 x 7200, for the vertical scroll scene."""
    W, H = 1920, 7200
    img = Image.new("RGB", (W, H), "#fbf7ef")
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, 560], fill="#2f5d50")
    d.text((W / 2, 230), "Cafe of Everyday Things", font=font(120), fill="#fbf7ef", anchor="mm")
    d.text((W / 2, 380), "Today's menu · scroll with one finger", font=font(64), fill="#cfe3d8", anchor="mm")
    sections = [
        ("Coffee", ["Espresso", "Cortado", "Flat white", "Cappuccino", "Filter coffee", "Iced latte"]),
        ("Tea", ["Breakfast tea", "Earl grey", "Green sencha", "Fresh mint", "Chai latte"]),
        ("Breakfast", ["Porridge with berries", "Sourdough toast", "Granola bowl", "Eggs on toast", "Croissant"]),
        ("Lunch", ["Soup of the day", "Grilled cheese", "Garden salad", "Quiche", "Falafel wrap", "Jacket potato"]),
        ("Cakes", ["Carrot cake", "Lemon drizzle", "Brownie", "Apple crumble", "Cinnamon bun", "Scone and jam"]),
        ("Cold drinks", ["Apple juice", "Lemonade", "Sparkling water", "Milkshake", "Iced tea"]),
    ]
    y = 680
    colours = ["#e76f51", "#2a9d8f", "#e9c46a", "#8d5a97", "#f4a261", "#457b9d"]
    for si, (title, items) in enumerate(sections):
        d.rectangle([120, y, W - 120, y + 150], fill=colours[si])
        d.text((180, y + 75), title, font=font(96), fill="white", anchor="lm")
        y += 220
        for ii, item in enumerate(items):
            price = f"{2.4 + 0.35 * ((si * 7 + ii * 3) % 11):.2f}"
            cx = 220
            d.ellipse([cx - 50, y + 10, cx + 50, y + 110], fill=colours[(si + ii) % len(colours)])
            d.text((320, y + 60), item, font=font(72), fill="#2b2a27", anchor="lm")
            d.text((W - 180, y + 60), price, font=font(72), fill="#2b2a27", anchor="rm")
            dots_from, dots_to = 320 + d.textlength(item, font=font(72)) + 30, W - 180 - d.textlength(price, font=font(72)) - 30
            for x in np.arange(dots_from, dots_to, 28):
                d.ellipse([x, y + 78, x + 6, y + 84], fill="#b9b1a0")
            y += 150
        y += 80
    d.rectangle([0, H - 300, W, H], fill="#2f5d50")
    d.text((W / 2, H - 150), "Thank you for visiting", font=font(80), fill="#fbf7ef", anchor="mm")
    img = img.crop((0, 0, W, H))
    img.save(os.path.join(OUT, "menu-long.png"), optimize=True)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    floorplan()
    floorplan(names=False)
    for name, f in [("sunset", painting_sunset), ("mountains", painting_mountains), ("circles", painting_circles),
                    ("night", painting_night)]:
        f().save(os.path.join(OUT, f"gallery-{name}.jpg"), quality=88)
    menu()
