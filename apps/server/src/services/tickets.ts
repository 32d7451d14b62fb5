import type { Repositories } from '../repositories/index.ts';

/**
 * Support tickets: a ticket is stored in one unit of work; when the help desk is configured it is stored as due
 * for forwarding (services/zendesk.ts forwards it in the background and retries on failure).
 */
export function createTicketService(repos: Pick<Repositories, 'tickets' | 'work'>) {
  return {
    /** Stores the user's ticket (due for forwarding when `forward`); answers its id. */
    open(input: { userId: number; subject: string; body: string; forward: boolean }): Promise<number> {
      return repos.work.run((tx) => repos.tickets.insert(tx, input));
    },
  };
}
