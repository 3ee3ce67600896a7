// --line-directives (line_directives.flags): #line markers keep every line of the output
// at its input line: after the header, after added host statements (which count as the
// line they were added at), and a rewritten expression's lines keep theirs.
#pragma cp composite
__global__ void sum_squares(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] *
         x[i];
  out[0] = s;
}

int main() {
  float *d_x, *d_out, h_out;
  cudaMalloc(&d_x, 256 * sizeof(float));
  cudaMalloc(&d_out, sizeof(float));
  cudaMemset(d_x, 0, 256 * sizeof(float));
  sum_squares<<<1, 1>>>(d_x, d_out, 256);
  cudaMemcpy(&h_out, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_out);
  return h_out != 0.0f;
}
