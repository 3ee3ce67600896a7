// Texture fetches of two and three dimensions and a surface read and write in a converted
// kernel: each fetch and the read give a plain float, the write stores the float value of
// a pair (a warning names each call); the conversion reads these templates' declarations.
#pragma cp composite
__global__ void blend(cudaTextureObject_t tex, cudaTextureObject_t vol, cudaSurfaceObject_t surf,
                      float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = tex2D<float>(tex, x + 0.5f, y + 0.5f) + tex3D<float>(vol, x + 0.5f, y + 0.5f, 0.5f);
  float old = surf2Dread<float>(surf, x * (int)sizeof(float), y);
  out[y * w + x] = 0.5f * s + old;
  surf2Dwrite(out[y * w + x], surf, x * (int)sizeof(float), y);
}
