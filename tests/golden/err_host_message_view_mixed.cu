// A converted kernel whose vec_t parameter receives a message view in one launch and the
// paired atoms' own vec_t in another reads that parameter's companions (the atoms have
// error terms), so the view cannot be a plain view: the view's field, given a raw buffer,
// has no companion to pass, and is refused where it is assigned (host_message_view_annotated
// is the shape that converts).
struct vec_t {
  float *x;
};

struct atoms_t {
  vec_t r, p;
};

#pragma cp composite
__global__ void add(atoms_t a, vec_t d, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a.r.x[i] += d.x[i];
}

void step(atoms_t a, char *buf, int n)
{
  vec_t r;
  r.x = (float *)buf;
  add<<<1, n>>>(a, r, n);
  add<<<1, n>>>(a, a.p, n);
}

int main()
{
  const int n = 32;
  atoms_t a;
  char *buf;
  cudaMalloc(&a.r.x, n * sizeof(float));
  cudaMalloc(&a.p.x, n * sizeof(float));
  cudaMalloc(&buf, n * sizeof(float));
  step(a, buf, n);
  return 0;
}
