// rt/camera.h — the pinhole camera. Python computes the basis once (Camera.basis in
// raytrace/scene.py) and both builds read the same 16 float32 numbers:
//   eye(3), right(3), up(3), forward(3), tan(fov_y / 2), width / height, unused(2).
// Pixel (x, y) has y = 0 at the top of the image.
#pragma once
#include "vec.h"

namespace rt {

struct Camera {
  Vec3 eye, right, up, forward;
  float tan_half_fov, aspect;

  GQ_HD static Camera from(const float* b) {
    return Camera{load3(b), load3(b + 3), load3(b + 6), load3(b + 9), b[12], b[13]};
  }

  // Unit direction through image position (u, v) in [0, 1]^2 (u rightwards, v downwards).
  GQ_HD GQ_INLINE Vec3 direction(float u, float v) const {
    const float sx = (2.0f * u - 1.0f) * tan_half_fov * aspect;
    const float sy = (1.0f - 2.0f * v) * tan_half_fov;
    return normalize(forward + right * sx + up * sy);
  }
};

}  // namespace rt
