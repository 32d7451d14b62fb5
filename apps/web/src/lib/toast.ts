import { TOAST_TIMEOUT_MS } from '@forecourt/contract/rules';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

export type ToastKind = 'info' | 'success' | 'error' | 'warning';

const COLORS: Record<ToastKind, string> = { info: 'blue', success: 'teal', error: 'red', warning: 'yellow' };

/** A toast: closes after 2500 ms, and has a close button. */
export function showToast(kind: ToastKind, message: ReactNode, title?: ReactNode): string {
  return notifications.show({
    color: COLORS[kind],
    title,
    message,
    autoClose: TOAST_TIMEOUT_MS,
    withCloseButton: true,
  });
}

export const toast = {
  info: (message: ReactNode, title?: ReactNode) => showToast('info', message, title),
  success: (message: ReactNode, title?: ReactNode) => showToast('success', message, title),
  error: (message: ReactNode, title?: ReactNode) => showToast('error', message, title),
  warning: (message: ReactNode, title?: ReactNode) => showToast('warning', message, title),
};
