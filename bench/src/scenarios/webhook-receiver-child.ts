import { WebhookReceiver } from '@repo/webhooks/receiver';

/**
 * Scenario 10's endpoint, in a process of its own (forked with IPC) as a real endpoint would be:
 * its HTTP parsing and signature checks are not the service's work. Answers `count` with what it
 * verified and `close` by closing; exits when the bench's IPC channel closes.
 */
const receiver = await WebhookReceiver.start();
process.send?.({ url: receiver.url, secret: receiver.secret });
// The bench went away (done, or died): so does its endpoint.
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => {
  if (message === 'count') {
    process.send?.({ received: receiver.received.length, rejected: receiver.rejected });
  } else if (message === 'close') {
    void receiver.close().then(() => process.exit(0));
  }
});
