"""What a render leaves on disk: the 8-bit sRGB PNG and the AOV arrays beside it.

Every file is written whole or not at all (queues_cuda/files.py), so a crash or a full disk
never leaves half a PNG that a viewer or a diff would take for a result.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from queues_cuda.errors import GQError
from queues_cuda.files import write_file_atomically

# The arrays `--aov` can ask for, in the order they are written.
AOV_NAMES = ("depth", "normal", "id", "prim")

# dtype and trailing shape of each AOV array (after [H, W]); see write_aovs.
_AOV_LAYOUT = {"depth": (np.float32, ()), "normal": (np.float32, (3,)), "id": (np.int32, ()),
               "prim": (np.int32, ())}


def to_srgb8(image: np.ndarray) -> np.ndarray:
    """Linear radiance float [H, W, 3] -> 8-bit sRGB [H, W, 3].

    Clamps to [0, 1], applies the sRGB transfer function (IEC 61966-2-1) and rounds half up,
    floor(x * 255 + 0.5), so the same image always gives the same bytes on every machine.
    """
    image = np.asarray(image)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"to_srgb8: expected an [H, W, 3] image, got shape {image.shape}")
    # Float64 for the transfer function: values one ulp apart in float32 must not round to
    # different bytes depending on which library evaluated the power.
    x = image.astype(np.float64)
    if not np.isfinite(x).all():
        # render() drops non-finite samples and counts them; one reaching here is a bug upstream,
        # and clamping it would hide that bug as a black or white pixel.
        bad = int(np.count_nonzero(~np.isfinite(x)))
        raise ValueError(f"to_srgb8: {bad} non-finite value(s) in the image; the renderer must drop them")
    x = np.clip(x, 0.0, 1.0)
    srgb = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1.0 / 2.4) - 0.055)
    return np.floor(srgb * 255.0 + 0.5).clip(0, 255).astype(np.uint8)


def write_png(path: str | os.PathLike, rgb8: np.ndarray) -> Path:
    """Write an [H, W, 3] uint8 image as PNG, atomically. Returns the path written."""
    rgb8 = np.asarray(rgb8)
    if rgb8.dtype != np.uint8 or rgb8.ndim != 3 or rgb8.shape[2] != 3:
        raise ValueError(f"write_png: expected uint8 [H, W, 3], got {rgb8.dtype} {rgb8.shape}")
    # Pillow is needed only to write images; importing it here keeps `gq` start-up light.
    from PIL import Image

    # A uint8 [H, W, 3] array is RGB to every Pillow version; the `mode` argument is deprecated.
    picture = Image.fromarray(np.ascontiguousarray(rgb8))
    path = Path(path)
    write_file_atomically(path, lambda f: picture.save(f, format="PNG"))
    return path


def aov_paths(png_path: str | os.PathLike) -> dict[str, Path]:
    """Where the AOVs of ``out.png`` go: ``out.depth.npy``, ``out.normal.npy``, ``out.id.npy``,
    ``out.prim.npy``."""
    png_path = Path(png_path)
    return {name: png_path.with_name(f"{png_path.stem}.{name}.npy") for name in AOV_NAMES}


def write_aovs(png_path: str | os.PathLike, aov: dict) -> list[Path]:
    """Write each AOV in ``aov`` beside the PNG, each file atomically. Returns the paths written.

    depth: float32 [H, W], distance along the primary ray to the first hit, inf where nothing hit.
    normal: float32 [H, W, 3], the shading normal at the first hit (zero where nothing hit).
    id: int32 [H, W], the index of the object hit first, -1 where nothing hit (for a triangle:
        the object id of its mesh).
    prim: int32 [H, W], for a triangle hit its face index within its mesh (the face order of the
        file or generator, counting faces skipped as degenerate), -1 for any other hit or none.
    Only the names present in ``aov`` are written; the caller passes the ones the user asked for.
    """
    unknown = sorted(set(aov) - set(AOV_NAMES))
    if unknown:
        raise ValueError(f"write_aovs: unknown AOV(s) {', '.join(unknown)}; allowed: {', '.join(AOV_NAMES)}")
    # Check every array before writing any, so a bad one does not leave the others behind alone.
    arrays = {}
    shape = None
    for name in AOV_NAMES:
        if name not in aov:
            continue
        dtype, tail = _AOV_LAYOUT[name]
        a = np.asarray(aov[name])
        if a.ndim != 2 + len(tail) or a.shape[2:] != tail:
            raise ValueError(f"write_aovs: {name} must be [H, W{''.join(', ' + str(t) for t in tail)}], got {a.shape}")
        if shape is not None and a.shape[:2] != shape:
            raise ValueError(f"write_aovs: {name} is {a.shape[:2]}, the other AOVs are {shape}")
        shape = a.shape[:2]
        arrays[name] = np.ascontiguousarray(a, dtype=dtype)
    paths = aov_paths(png_path)
    written = []
    for name, a in arrays.items():
        # np.save given a file object writes exactly there (it appends ".npy" only to names).
        write_file_atomically(paths[name], lambda f, a=a: np.save(f, a, allow_pickle=False))
        written.append(paths[name])
    return written


def parse_aov_list(text: str) -> tuple[str, ...]:
    """``"depth,id"`` -> ``("depth", "id")``: a comma-separated subset of AOV_NAMES, duplicates dropped."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names:
        raise GQError(f"--aov: give one or more of {', '.join(AOV_NAMES)}, separated by commas")
    for n in names:
        if n not in AOV_NAMES:
            raise GQError(f"--aov: unknown AOV {n!r}; allowed: {', '.join(AOV_NAMES)}")
    return tuple(dict.fromkeys(names))
