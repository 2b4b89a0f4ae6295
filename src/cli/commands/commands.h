/* segscan CLI - the commands main.c dispatches to: cmd_<name>.c each. Each
 * takes its own argv (argv[0] is the command's name) and returns the exit code. */
#ifndef SS_CLI_COMMANDS_H
#define SS_CLI_COMMANDS_H

int cmd_scan(int argc, char **argv);
int cmd_dups(int argc, char **argv);
int cmd_producers(int argc, char **argv);
int cmd_txns(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_coordinator(int argc, char **argv);
int cmd_groups(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
