/* The node's pod sandbox process: holds the pod's namespaces, reaps zombies, exits on TERM/INT.
   Built static (gcc -static) into a FROM-scratch image, since no pause image can be pulled here. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void quit(int sig) { (void)sig; _exit(0); }
static void reap(int sig) { (void)sig; while (waitpid(-1, NULL, WNOHANG) > 0) {} }

int main(void) {
  struct sigaction term = { .sa_handler = quit }, child = { .sa_handler = reap, .sa_flags = SA_NOCLDSTOP };
  sigaction(SIGINT, &term, NULL);
  sigaction(SIGTERM, &term, NULL);
  sigaction(SIGCHLD, &child, NULL);
  for (;;) pause();
}
