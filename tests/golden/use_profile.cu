// --use-profile: the profile (use_profile.json) saw `scale` and `half` never carry an error
// term, and `t` carry one; `gone` names a variable this kernel no longer has (a warning).
#pragma cp composite
__global__ void step(float *x, const float *v, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float scale = 2.0f;
  float half = dt / 2;
  float t = v[i] * half;
  x[i] += scale * t;
}

void run(float *x, const float *v, int n, float dt) {
  step<<<(n + 255) / 256, 256>>>(x, v, n, dt);
}
