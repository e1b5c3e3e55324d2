import type { App } from 'antd';

type FeedbackApi = ReturnType<typeof App.useApp>;

/**
 * The toast and modal functions of the mounted antd App, for code outside components (the error handling of
 * calls). FeedbackBridge sets them once the App is mounted.
 */
let current: FeedbackApi | undefined;

export const setFeedback = (api: FeedbackApi) => {
  current = api;
};

export const toast = {
  success: (text: string) => void current?.message.success(text),
  error: (text: string) => void current?.message.error(text),
  info: (text: string) => void current?.message.info(text),
};

export const showModal = (props: { title: string; content: React.ReactNode; okText: string }) =>
  void current?.modal.error({ ...props });
