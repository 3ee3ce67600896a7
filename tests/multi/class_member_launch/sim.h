struct Particles {
  float4 *d_pos, *d_vel;
  const int n;
  Particles(int n);
  ~Particles();
  void upload(const float4 *h_pos, const float4 *h_vel);
};

class Simulation {
public:
  Simulation(int n);
  ~Simulation();
  void step(float dt);
  void positions(float4 *h_pos);

private:
  Particles *pt;
};
