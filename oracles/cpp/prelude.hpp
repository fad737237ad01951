// layoutcheck's cute-cpp driver runtime, precompiled once per toolchain (oracles/cpp/toolchain.py).
// Written for layoutcheck: it reads runtime integers, prints answers, and names static
// answer types in diagnostics.  Every answer line is "TAG text": L a layout, T an integer or
// a tuple of integers, B a bool, P a (layout, integer) pair, V the values of a layout.
#include <cute/layout.hpp>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

namespace lc {

// --- input: whitespace-separated decimal integers on stdin ------------------------------
inline int last_char = '\n';  // the last character read (one case is one line)
inline int next_char() {
  static char buf[1 << 16];
  static size_t len = 0, pos = 0;
  if (pos == len) {
    len = std::fread(buf, 1, sizeof buf, stdin);
    pos = 0;
    if (len == 0) return last_char = -1;
  }
  return last_char = buf[pos++];
}

// The rest of the current case's line (after a case that died before reading all of it).
inline void skip_line() {
  while (last_char != '\n' && last_char != -1) next_char();
}

// --- a case that dies: CuTe's runtime assert (SIGABRT) or a division by zero (SIGFPE) ------
// The driver answers it "@@abort <signal>" and goes on with the next case in the same process
// (a restart per abort cost ~30 ms). The kernels are pure functions of their line:
// nothing outlives a case but the input buffer and stdout. Other signals still end the run,
// and the Python side restarts after that case (oracles/cpp/driver.py Library.run).
inline sigjmp_buf case_env;
inline volatile std::sig_atomic_t in_case = 0;
extern "C" inline void on_case_signal(int sig) {
  if (in_case) { in_case = 0; siglongjmp(case_env, sig); }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
inline void catch_case_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_case_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGABRT, &sa, nullptr);
  sigaction(SIGFPE, &sa, nullptr);
}

// The next integer; *ok = false at the end of the input.
inline long long read_int(bool* ok) {
  int c = next_char();
  while (c == ' ' || c == '\n' || c == '\r' || c == '\t') c = next_char();
  if (c < 0) { *ok = false; return 0; }
  bool neg = c == '-';
  if (neg) c = next_char();
  long long v = 0;
  while (c >= '0' && c <= '9') { v = v * 10 + (c - '0'); c = next_char(); }
  *ok = true;
  return neg ? -v : v;
}

inline int next() {
  bool ok;
  long long v = read_int(&ok);
  if (!ok) { std::fputs("@@lc-input-ended\n", stdout); std::fflush(stdout); std::exit(3); }
  return static_cast<int>(v);
}

// --- output -------------------------------------------------------------------------------
template <class T> struct is_c : std::false_type {};
template <auto v> struct is_c<cute::C<v>> : std::true_type {};
template <class T, T v> struct is_c<cute::integral_constant<T, v>> : std::true_type {};
template <class T> struct is_c_bool : std::false_type {};
template <bool b> struct is_c_bool<cute::C<b>> : std::true_type {};
template <bool b> struct is_c_bool<cute::integral_constant<bool, b>> : std::true_type {};

template <class T> void put(T const& x);

template <class T, size_t... I>
void put_tuple(T const& t, std::index_sequence<I...>) {
  std::putchar('(');
  ((I ? (void)std::putchar(',') : (void)0, put(cute::get<I>(t))), ...);
  std::putchar(')');
}

template <class T>
void put(T const& x) {
  if constexpr (is_c_bool<T>::value) {
    std::fputs(T::value ? "_true" : "_false", stdout);
  } else if constexpr (is_c<T>::value) {
    std::printf("_%lld", static_cast<long long>(T::value));
  } else if constexpr (std::is_same_v<T, bool>) {
    std::fputs(x ? "true" : "false", stdout);
  } else if constexpr (std::is_integral_v<T>) {
    std::printf("%lld", static_cast<long long>(x));
  } else if constexpr (cute::is_layout<T>::value) {
    put(x.shape());
    std::putchar(':');
    put(x.stride());
  } else if constexpr (cute::is_tuple<T>::value) {
    put_tuple(x, std::make_index_sequence<cute::tuple_size<T>::value>{});
  } else {
    std::fputs("?", stdout);  // a type layoutcheck does not know: parsed as an error
    cute::print(x);
  }
}

template <class T> struct is_layout_pair : std::false_type {};
template <class S, class D, class O>
struct is_layout_pair<cute::tuple<cute::Layout<S, D>, O>> : std::true_type {};

template <class T>
void answer(T const& x) {
  if constexpr (cute::is_layout<T>::value) {
    std::fputs("L ", stdout);
    put(x);
  } else if constexpr (std::is_same_v<T, bool> || is_c_bool<T>::value) {
    std::fputs("B ", stdout);
    put(x);
  } else if constexpr (is_layout_pair<T>::value) {  // slice_and_offset
    std::fputs("P ", stdout);
    put(cute::get<0>(x));
    std::putchar(' ');
    put(cute::get<1>(x));
  } else {
    std::fputs("T ", stdout);
    put(x);
  }
}

template <class L>
void values(L const& layout) {
  std::fputs("V", stdout);
  for (long long i = 0; i < static_cast<long long>(cute::size(layout)); ++i) {
    std::printf(" %lld", static_cast<long long>(layout(i)));
  }
}

// --- static answers: named by a diagnostic at compile time (no code generated) ------------
// The values of a static layout: L(i) for every i in [0, size(L)), with i a
// runtime-typed long long as in values() above, evaluated by the compiler (the same C++ code in
// a constant expression); held in the type vals<L(0), L(1), ...>.  A case whose evaluation is
// not a constant expression (a division by zero, an overflow) is run by a driver instead.
template <long long... V> struct vals {};
template <class T> struct is_vals : std::false_type {};
template <long long... V> struct is_vals<vals<V...>> : std::true_type {};

template <class L, std::size_t... I>
constexpr auto static_values_of(std::index_sequence<I...>) {
  constexpr L layout{};
  return vals<static_cast<long long>(layout(static_cast<long long>(I)))...>{};
}
template <class L>
constexpr auto static_values(L const&) {
  return static_values_of<L>(std::make_index_sequence<decltype(cute::size(std::declval<L>()))::value>{});
}

template <class R, std::enable_if_t<cute::is_static<R>::value || is_vals<R>::value, int> = 0>
[[deprecated("lc-static-answer")]] constexpr int show() { return 0; }
template <class R, std::enable_if_t<!(cute::is_static<R>::value || is_vals<R>::value), int> = 0>
[[deprecated("lc-dynamic-answer")]] constexpr int show() { return 0; }

}  // namespace lc
