/// <reference lib="webworker" />
/**
 * A dedicated worker that POSTs what it is told to and reports the answer: requests made by a
 * page's workers go through the page's service worker too, and must reach the node.
 */
self.onmessage = async (event: MessageEvent<{ url: string; body: string }>) => {
  try {
    const response = await fetch(event.data.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: event.data.body })
    self.postMessage({ status: response.status, text: await response.text() })
  } catch (error) {
    self.postMessage({ status: 0, text: String(error) })
  }
}
