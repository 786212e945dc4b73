// A small class in the style of src/session/session.h, read by test_surfaces.cpp to check that
// its member counter counts each declaration once (not compiled).
class Sample {
 public:
  Sample();
  // A comment is not a member.
  Status go(int a,
            int b);
  int x() const { return x_; }

 private:
  int hidden() const;
  int x_ = 0;
};
