"""What a render leaves on disk: exact sRGB bytes, PNGs that read back as written, AOV arrays with
their dtypes and 'nothing hit' markers, and no half-written file when a write fails."""

import math
import os

import numpy as np
import pytest
from PIL import Image

from queues_cuda.errors import GQError
from raytrace.image import aov_paths, parse_aov_list, to_srgb8, write_aovs, write_png


def pixel(v: float) -> int:
    return int(to_srgb8(np.full((1, 1, 3), v, dtype=np.float32))[0, 0, 0])


def reference(v: float) -> int:
    """IEC 61966-2-1, written out independently of the vectorised code."""
    v = min(max(v, 0.0), 1.0)
    s = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return math.floor(s * 255 + 0.5)


def test_srgb_fixed_points():
    assert pixel(0.0) == 0
    assert pixel(1.0) == 255
    assert pixel(0.5) == 188  # 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536 -> 187.52 -> 188
    assert pixel(0.002) == 7  # the linear segment: 12.92 * 0.002 * 255 = 6.59 -> 7


def test_srgb_clamps():
    assert pixel(-3.0) == 0
    assert pixel(1.0001) == 255
    assert pixel(1e30) == 255


def test_srgb_matches_the_reference_everywhere():
    values = np.linspace(-0.1, 1.1, 4001, dtype=np.float32)
    image = np.stack([values, values[::-1], np.full_like(values, 0.25)], axis=-1).reshape(1, -1, 3)
    out = to_srgb8(image)
    assert out.dtype == np.uint8 and out.shape == image.shape
    want = np.array([[[reference(float(c)) for c in px] for px in image[0]]], dtype=np.uint8)
    assert np.array_equal(out, want)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_srgb_refuses_non_finite(bad):
    image = np.zeros((2, 2, 3), dtype=np.float32)
    image[1, 0, 2] = bad
    with pytest.raises(ValueError, match="non-finite"):
        to_srgb8(image)


def test_srgb_refuses_wrong_shape():
    with pytest.raises(ValueError, match=r"\[H, W, 3\]"):
        to_srgb8(np.zeros((4, 4), dtype=np.float32))


def test_png_round_trip(tmp_path):
    rgb = np.random.default_rng(7).integers(0, 256, size=(13, 29, 3), dtype=np.uint8)
    path = write_png(tmp_path / "out.png", rgb)
    with Image.open(path) as im:
        assert im.mode == "RGB" and im.size == (29, 13)
        assert np.array_equal(np.asarray(im), rgb)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]  # no temporary file left


def test_png_takes_the_users_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        path = write_png(tmp_path / "out.png", np.zeros((2, 2, 3), dtype=np.uint8))
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644


def test_failed_png_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "out.png"
    path.write_bytes(b"the previous image")

    def broken_save(self, fp, *args, **kwargs):
        fp.write(b"\x89PNG half of it")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Image.Image, "save", broken_save)
    with pytest.raises(OSError, match="No space left"):
        write_png(path, np.zeros((4, 4, 3), dtype=np.uint8))
    assert path.read_bytes() == b"the previous image"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]


def test_png_into_a_missing_folder_writes_nothing(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_png(tmp_path / "missing" / "out.png", np.zeros((2, 2, 3), dtype=np.uint8))
    assert list(tmp_path.iterdir()) == []


def aovs(h=3, w=5):
    depth = np.full((h, w), np.inf, dtype=np.float32)
    depth[1, 2] = 4.5
    normal = np.zeros((h, w, 3), dtype=np.float32)
    normal[1, 2] = (0.0, 1.0, 0.0)
    ids = np.full((h, w), -1, dtype=np.int32)
    ids[1, 2] = 17
    return {"depth": depth, "normal": normal, "id": ids}


def test_aovs_are_written_beside_the_png(tmp_path):
    png = tmp_path / "shot.png"
    written = write_aovs(png, aovs())
    paths = aov_paths(png)
    assert [p.name for p in written] == ["shot.depth.npy", "shot.normal.npy", "shot.id.npy"]
    depth, normal, ids = (np.load(paths[n]) for n in ("depth", "normal", "id"))
    assert not paths["prim"].exists() and paths["prim"].name == "shot.prim.npy"
    assert depth.dtype == np.float32 and depth.shape == (3, 5)
    assert np.isinf(depth).sum() == 14 and depth[1, 2] == 4.5
    assert normal.dtype == np.float32 and normal.shape == (3, 5, 3) and tuple(normal[1, 2]) == (0, 1, 0)
    assert ids.dtype == np.int32 and (ids == -1).sum() == 14 and ids[1, 2] == 17


def test_only_the_aovs_given_are_written_and_dtypes_are_fixed(tmp_path):
    a = aovs()
    write_aovs(tmp_path / "x.png", {"id": a["id"].astype(np.int64)})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.id.npy"]
    assert np.load(tmp_path / "x.id.npy").dtype == np.int32


@pytest.mark.parametrize("aov, needle", [
    ({"colour": np.zeros((2, 2))}, "unknown AOV"),
    ({"depth": np.zeros((2, 2, 1))}, "depth must be"),
    ({"depth": np.zeros((2, 2)), "id": np.zeros((3, 2))}, "the other AOVs"),
])
def test_bad_aovs_write_nothing(tmp_path, aov, needle):
    with pytest.raises(ValueError, match=needle):
        write_aovs(tmp_path / "x.png", aov)
    assert list(tmp_path.iterdir()) == []


def test_parse_aov_list():
    assert parse_aov_list("depth,normal,id") == ("depth", "normal", "id")
    assert parse_aov_list(" id , depth ") == ("id", "depth")
    assert parse_aov_list("depth,depth,") == ("depth",)


@pytest.mark.parametrize("text, needle", [
    ("depth,colour", "--aov: unknown AOV 'colour'; allowed: depth, normal, id"),
    ("", "--aov: give one or more of depth, normal, id"),
    (" , ", "--aov: give one or more"),
])
def test_parse_aov_list_errors_name_the_option_and_the_values(text, needle):
    with pytest.raises(GQError) as exc:
        parse_aov_list(text)
    assert needle in str(exc.value)
