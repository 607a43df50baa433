"""Not committed: one tile render (2x2 tiles) per queue named, for ncu to count."""
import sys

from raytrace.render import RenderOptions, render
from raytrace.scene import load_scene

scene = load_scene(sys.argv[1])
for q in sys.argv[2].split(","):
    r = render(scene, RenderOptions(width=1920, height=1080, spp=4, backend="cuda", renderer="queue", queue=q,
                                    tiles=(2, 2)))
    print(q, r.seconds, r.total_rays, flush=True)
